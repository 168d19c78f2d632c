/**
 * The page a browser gets while the portal starts (starting.ts): it says so and reloads itself, so
 * someone who opens the portal during its first seconds lands on the portal, not on a 503 in JSON.
 * No script (a meta refresh), no external file (nothing is served yet), both colour schemes.
 */
const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export function startingPage(reason: string, reloadSeconds: number): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="refresh" content="${reloadSeconds}">
<meta name="color-scheme" content="light dark">
<title>Customer Portal is starting</title>
<style>
body { font-family: system-ui, sans-serif; margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f8f9fa; color: #212529; }
main { max-width: 32rem; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
p { line-height: 1.5; margin: .5rem 0; }
.reason { color: #495057; font-size: .875rem; }
@media (prefers-color-scheme: dark) { body { background: #1a1b1e; color: #f1f3f5; } .reason { color: #ced4da; } }
</style>
</head>
<body>
<main>
<h1>The portal is starting</h1>
<p role="status">This page reloads itself every ${reloadSeconds} seconds and shows the portal as soon as it is ready.</p>
<p class="reason">Now: ${escapeHtml(reason)}.</p>
</main>
</body>
</html>
`;
}
