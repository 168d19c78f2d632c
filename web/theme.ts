/**
 * Mantine's default theme with a calm indigo, in light and dark (docs/decisions.md "Dark mode").
 * Shade 7 keeps white text on filled buttons and links on white above the WCAG AA 4.5:1 contrast,
 * in both schemes; "dimmed" text, the error red and the text of the light and outline variants are
 * changed for the same reason, here once for every screen of each scheme.
 */
import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  // Dark's default, 5, puts white on indigo.5 at 3.7:1; 7 is 5:1 (links are indigo.3 in dark, below).
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamily:
    'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '650' },
  // Dialogs and menus appear without a fade for people who ask for less motion (prefers-reduced-motion).
  respectReducedMotion: true,
  components: {
    Badge: { defaultProps: { radius: 'sm' } },
    // A dialog's title bar as a plain element: Mantine draws it as <header>, which axe takes for a
    // second banner landmark beside the page's header while a dialog is open.
    ModalHeader: { defaultProps: { component: 'div' } },
  },
});

/**
 * Text of the light variants (badges, alert titles, light buttons, the active sidebar link).
 * Mantine uses shade 9, which is below 4.5:1 on the tint for these colours; these stay above it,
 * also on the hover tint (shade 2).
 */
const LIGHT_VARIANT_TEXT: Record<string, string> = {
  red: '#b02525',
  orange: '#9a3a00',
  yellow: '#7a5200',
  green: '#1e6b2e',
  teal: '#066649',
  gray: '#343a40',
  indigo: '#2b3c9c',
};

/**
 * Text and border of the outline variants in light (outline badges, Delete): Mantine uses the
 * primary shade (7), below 4.5:1 on white for these colours. Dark uses shade 3, far above it.
 */
const LIGHT_OUTLINE: Record<string, string> = {
  red: 'var(--mantine-color-red-9)',
  orange: LIGHT_VARIANT_TEXT.orange,
  teal: LIGHT_VARIANT_TEXT.teal,
};

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    // Links: Mantine's indigo.7 is 4.5:1 on white but 4.48:1 on a hovered table row (gray.1);
    // indigo.8 is 5.1:1 there.
    '--mantine-color-anchor': 'var(--mantine-color-indigo-8)',
    // Mantine's error red (red.6) is below 4.5:1 on white: field errors and error borders.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(Object.entries(LIGHT_VARIANT_TEXT).map(([color, text]) => [`--mantine-color-${color}-light-color`, text])),
    ...Object.fromEntries(Object.entries(LIGHT_OUTLINE).map(([color, text]) => [`--mantine-color-${color}-outline`, text])),
  },
  dark: {
    // Mantine's dark.2 is 4.0:1 on the body (dark.7) and 3.5:1 on cards and striped rows (dark.6);
    // this grey is 5.1:1 on dark.6 and 4.7:1 on a hovered row (dark.5).
    '--mantine-color-dimmed': '#a8a8a8',
    // Links: Mantine's indigo.4 is 3.8:1 on a hovered table row (dark.5); indigo.3 is 4.9:1 there.
    '--mantine-color-anchor': 'var(--mantine-color-indigo-3)',
    // Mantine's red.8 is 3.4:1 on the body; red.5 is 5.6:1 there and 4.9:1 on a card.
    '--mantine-color-error': 'var(--mantine-color-red-5)',
  },
});

/** The per-response CSP nonce the server writes into <meta property="csp-nonce">. */
export function styleNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[property=csp-nonce]')?.nonce ?? '';
}
