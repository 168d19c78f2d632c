/**
 * The built-in provider's pages: sign-in, sign-out, errors. Plain HTML in the portal's look,
 * styled by /oidc-assets/login.css so that the strict CSP (no inline style or script) holds.
 */

export const STYLESHEET_PATH = '/oidc-assets/login.css';
export const LOGOUT_SCRIPT_PATH = '/oidc-assets/logout.js';

/**
 * Presses the page's "Sign out" button (so `logout=yes` is sent); served as a file because the
 * CSP forbids inline scripts.
 */
export const LOGOUT_SCRIPT = "document.querySelector('button[name=\"logout\"]').click();\n";

const WRONG_CREDENTIALS = 'Email or password is wrong.';
export const TOO_MANY_ATTEMPTS = 'Too many sign-in attempts. Please wait a minute, then try again.';

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string, head = ''): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)} · Customer Portal</title>
<link rel="stylesheet" href="${STYLESHEET_PATH}">
${head}</head>
<body>
<main class="card">
<p class="brand">Customer Portal</p>
${body}
</main>
</body>
</html>
`;
}

export interface LoginPageOptions {
  /** Where the form posts: /oidc/interaction/:uid/login. */
  action: string;
  email?: string;
  failed?: boolean;
  /** Another error than wrong credentials (too many attempts). */
  error?: string;
}

export function renderLoginPage({ action, email = '', failed: wrong = false, error: other }: LoginPageOptions): string {
  const failed = wrong || Boolean(other);
  const error = failed ? `<p class="error" id="login-error" role="alert">${escapeHtml(other ?? WRONG_CREDENTIALS)}</p>\n` : '';
  const describedBy = failed ? ' aria-describedby="login-error"' : '';
  // Focus goes where the person types next: the email first, the password after a failure.
  const focusEmail = failed && email ? '' : ' autofocus';
  const focusPassword = failed && email ? ' autofocus' : '';
  return page(
    'Sign in',
    `<h1>Sign in</h1>
${error}<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" autocomplete="username" required maxlength="320" value="${escapeHtml(email)}"${describedBy}${focusEmail}>
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required maxlength="1024"${describedBy}${focusPassword}>
<button type="submit">Sign in</button>
</form>`,
  );
}

/** oidc-provider's sign-out confirmation around its own form (id "op.logoutForm", hidden xsrf field). */
export function renderLogoutPage(form: string, { autoSubmit }: { autoSubmit: boolean }): string {
  const script = autoSubmit ? `<script src="${LOGOUT_SCRIPT_PATH}" defer></script>\n` : '';
  return page(
    'Sign out',
    `<h1>Sign out</h1>
<p>Do you want to sign out of the Customer Portal?</p>
${form}
<div class="actions">
<button type="submit" form="op.logoutForm" name="logout" value="yes">Sign out</button>
<button type="submit" form="op.logoutForm" class="secondary">Stay signed in</button>
</div>`,
    script,
  );
}

export interface MessagePageOptions {
  title: string;
  message: string;
  link?: { href: string; text: string };
}

/** Errors and the "signed out" notice. */
export function renderMessagePage({ title, message, link }: MessagePageOptions): string {
  const action = link ? `\n<p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : '';
  return page(title, `<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>${action}`);
}
