/**
 * `scrollAreaProps` of a table that scrolls sideways: a focusable, named region, so the keyboard
 * reaches the columns out of view too (WCAG 2.1.1) and a screen reader names what scrolls.
 */
export const scrollRegion = (label: string) => ({ viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label } });
