/** Entry point. Styles are bundled files: the CSP allows no injected <style> without the nonce, and no eval. */
// First: zod without eval before any schema is made (the CSP allows no eval either).
import './lib/zod-without-eval';
import './mantine-first-screens.css';
import './styles.css';

import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { setNonce } from 'get-nonce';
import { App } from './App';
import { startTokenRenewal } from './lib/access-token';
import { styleNonce } from './theme';

// Mantine's Modal and Drawer lock the page scroll with react-remove-scroll, whose <style> tags
// (react-style-singleton) take their nonce from get-nonce: the same per-response nonce as Mantine's.
setNonce(styleNonce());
startTokenRenewal();

// The first render as a transition: React renders it in slices and lets the browser breathe
// between them, instead of one long task.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  ),
);
