/**
 * Mantine's default theme with a calm indigo. Shade 7 keeps white text on filled buttons and
 * links on white above the WCAG AA 4.5:1 contrast; "dimmed" text, the error red and the text of
 * the light variants are darkened for the same reason, here once for every screen.
 */
import { createTheme, type CSSVariablesResolver } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 5 },
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

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    // Mantine's error red (red.6) is below 4.5:1 on white: field errors and error borders.
    '--mantine-color-error': 'var(--mantine-color-red-9)',
    ...Object.fromEntries(Object.entries(LIGHT_VARIANT_TEXT).map(([color, text]) => [`--mantine-color-${color}-light-color`, text])),
  },
  dark: {},
});

/** The per-response CSP nonce the server writes into <meta property="csp-nonce">. */
export function styleNonce(): string {
  return document.querySelector<HTMLMetaElement>('meta[property=csp-nonce]')?.nonce ?? '';
}
