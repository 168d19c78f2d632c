/**
 * The sign-in provider the web app uses (lib/auth.ts), and that provider's discovery document. The
 * server writes the settings into index.html; without them (Vite's dev server) they come from GET
 * /api/config. Asked for once and kept; the router asks for the document as the sign-in screens'
 * code loads (web/router.tsx), so the redirect to the provider does not wait for it after the
 * first render. A failure is not kept: the next call asks again.
 */
import type { ClientSettings } from '../../common/schemas/profile';

let settings: Promise<ClientSettings> | null = null;

/** The settings the server wrote into index.html (server/http/web-app.ts); none from Vite's dev server. */
function settingsInPage(): ClientSettings | null {
  const content = document.querySelector<HTMLMetaElement>('meta[name="portal-client-settings"]')?.content;
  try {
    return content ? (JSON.parse(content) as ClientSettings) : null;
  } catch {
    return null;
  }
}

export function loadClientSettings(): Promise<ClientSettings> {
  const inPage = settingsInPage();
  if (inPage) return Promise.resolve(inPage);
  settings ??= fetch('/api/config', { headers: { Accept: 'application/json', 'X-Requested-With': 'JavaScript' } })
    .then(async (response) => {
      if (!response.ok) throw new Error(`GET /api/config answered ${response.status}`);
      return (await response.json()) as ClientSettings;
    })
    .catch((error: unknown) => {
      settings = null;
      throw error;
    });
  return settings;
}

/** What oidc-client-ts would fetch from the provider itself (OidcMetadata). */
export type ProviderMetadata = Record<string, unknown>;

let metadata: Promise<ProviderMetadata | null> | null = null;

/**
 * The provider's discovery document, at the address oidc-client-ts would ask (its authority +
 * /.well-known/openid-configuration). null when it cannot be had: the library then asks itself.
 */
export function loadProviderMetadata(): Promise<ProviderMetadata | null> {
  metadata ??= loadClientSettings()
    .then(async ({ authority }) => {
      const url = `${authority}${authority.endsWith('/') ? '' : '/'}.well-known/openid-configuration`;
      const response = await fetch(url, { headers: { Accept: 'application/json' } });
      return response.ok ? ((await response.json()) as ProviderMetadata) : null;
    })
    .catch(() => {
      metadata = null;
      return null;
    });
  return metadata;
}
