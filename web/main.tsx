/** Entry point. Styles are bundled files: the CSP allows no injected <style> without the nonce. */
import '@mantine/core/styles.css';
import '@mantine/dates/styles.css';
import 'react-toastify/ReactToastify.css';
import './styles.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startTokenRenewal } from './lib/auth';

startTokenRenewal();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
