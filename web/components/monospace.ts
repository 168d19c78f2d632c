/**
 * Monospace text: PEM, serial numbers, signatures, tokens, paths. Inline CSSOM styles, which the
 * CSP allows (a <style> tag would need the nonce).
 */
export const MONOSPACE = { fontFamily: 'var(--mantine-font-family-monospace)' } as const;

/** `styles` of a text area holding a PEM or a token: monospace, small enough for 64-character lines. */
export const MONOSPACE_TEXT_AREA = { input: { ...MONOSPACE, fontSize: 'var(--mantine-font-size-xs)' } } as const;
