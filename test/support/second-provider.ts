/**
 * A second, standalone OpenID Connect provider for tests (oidc-provider on 127.0.0.1, a free
 * port), configured independently of the portal's built-in one and shaped unlike it: RS256 keys,
 * its own client and API audience, access tokens whose `aud` is an array (the API and the
 * provider's userinfo, as Auth0 issues them), and claims placed per test, in the access token, the
 * ID token and the userinfo answer separately, nested where a test wants them.
 *
 * Userinfo comes two ways: 'own' is oidc-provider's endpoint, which (resource indicators) refuses
 * the API's access tokens with 401; 'accepts-access-token' is the userinfo of Keycloak, Auth0 or
 * Okta, which answers for the API's access token (served here beside the provider, named by its
 * discovery document).
 *
 * Sign-in is the authorization code flow with PKCE over HTTP; the interaction signs in the account
 * named by `login_hint` without a form (the form is the built-in provider's business, tested there).
 */
import http from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, jwtVerify } from 'jose';
import Provider, { type Configuration } from 'oidc-provider';

type Claims = Record<string, unknown>;

interface Account {
  email: string;
  email_verified?: boolean;
  name?: string;
  given_name?: string;
  family_name?: string;
}

export interface SecondProviderOptions {
  clientId?: string;
  /** The API's audience (OIDC_AUDIENCE): the first of the access tokens' `aud`. */
  audience?: string;
  userinfo: 'own' | 'accepts-access-token';
  /** Where a browser sign-in may return (a portal's /auth/callback); the tests' code flow has its own. */
  redirectUris?: string[];
  postLogoutRedirectUris?: string[];
  /** The person's claims in each place; none where a function is missing (`sub` is always there). */
  claims: {
    accessToken?: (account: Account) => Claims;
    idToken?: (account: Account) => Claims;
    userinfo?: (account: Account) => Claims;
  };
}

export interface SecondProvider {
  issuer: string;
  clientId: string;
  audience: string;
  addAccount(id: string, account: Account): void;
  /** Signs the account in as the web app does; the token endpoint's answer. */
  signIn(accountId: string): Promise<{ access_token: string; id_token: string }>;
  /** How often its userinfo endpoint was asked, and how often it refused. */
  userinfoCalls: { answered: number; refused: number };
  close(): Promise<void>;
}

const RESOURCE = 'https://api.portal.test/';
const REDIRECT_URI = 'http://127.0.0.1/auth/callback';
const API_USERINFO_PATH = '/userinfo-for-api';
/** Every claim a test may place: oidc-provider passes on only claims a granted scope names. */
const PROFILE_CLAIMS = ['name', 'given_name', 'family_name', 'person', 'upn', 'preferred_username', 'contact'];

type Stored = Record<string, unknown> & { uid?: string; userCode?: string; grantId?: string; consumed?: number };

/** The provider's state in this process (oidc-provider warns about its own development store). */
function memoryAdapter(store: Map<string, Stored>) {
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    private key = (id: string) => `${this.model}:${id}`;
    async upsert(id: string, payload: Stored) {
      store.set(this.key(id), payload);
    }
    async find(id: string) {
      return store.get(this.key(id));
    }
    async findByUid(uid: string) {
      return [...store.entries()].find(([key, value]) => key.startsWith(`${this.model}:`) && value.uid === uid)?.[1];
    }
    async findByUserCode(userCode: string) {
      return [...store.entries()].find(([key, value]) => key.startsWith(`${this.model}:`) && value.userCode === userCode)?.[1];
    }
    async consume(id: string) {
      const payload = store.get(this.key(id));
      if (payload) payload.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(this.key(id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [key, value] of store) if (value.grantId === grantId) store.delete(key);
    }
  };
}

export async function startSecondProvider(options: SecondProviderOptions): Promise<SecondProvider> {
  const clientId = options.clientId ?? 'portal-web';
  const audience = options.audience ?? 'portal-api';
  const accounts = new Map<string, Account>();
  const userinfoCalls = { answered: 0, refused: 0 };

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  const issuer = `http://127.0.0.1:${port}`;
  const base = issuer;

  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const privateJwk = { ...(await exportJWK(privateKey)), kid: 'second-1', alg: 'RS256', use: 'sig' };
  const publicKeys = createLocalJWKSet({ keys: [{ ...(await exportJWK(publicKey)), kid: 'second-1', alg: 'RS256', use: 'sig' }] });

  const place = (where: keyof SecondProviderOptions['claims'], account: Account) => options.claims[where]?.(account) ?? {};

  const configuration: Configuration = {
    adapter: memoryAdapter(new Map()),
    jwks: { keys: [privateJwk] },
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Session: 3600, Grant: 3600, RefreshToken: 3600 },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    clients: [
      {
        client_id: clientId,
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: [REDIRECT_URI, ...(options.redirectUris ?? [])],
        post_logout_redirect_uris: options.postLogoutRedirectUris ?? [],
      },
    ],
    scopes: ['openid', 'profile', 'email', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: PROFILE_CLAIMS },
    pkce: { required: () => true },
    // Public clients from any origin (the portal's web app is another origin than this provider).
    clientBasedCORS: () => true,
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async (use) => ({ sub, ...place(use === 'userinfo' ? 'userinfo' : 'idToken', account) }),
      };
    },
    loadExistingGrant: async (ctx) => {
      const { client, session, provider } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope('openid profile email offline_access');
      grant.addResourceScope(RESOURCE, 'api');
      await grant.save();
      return grant;
    },
    extraTokenClaims: async (_ctx, token) => {
      const account = token.kind === 'AccessToken' && token.accountId ? accounts.get(token.accountId) : undefined;
      return account ? place('accessToken', account) : undefined;
    },
    formats: {
      customizers: {
        // Auth0's shape: the API and the provider's userinfo, as an array.
        jwt: async (_ctx, _token, jwt) => {
          jwt.payload.aud = [audience, `${issuer}${API_USERINFO_PATH}`];
        },
      },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: {
      devInteractions: { enabled: false },
      userinfo: { enabled: options.userinfo === 'own' },
      resourceIndicators: {
        enabled: true,
        defaultResource: async () => RESOURCE,
        useGrantedResource: async () => true,
        getResourceServerInfo: async () => ({ scope: 'api', audience, accessTokenFormat: 'jwt', jwt: { sign: { alg: 'RS256' } } }),
      },
    },
    ...(options.userinfo === 'accepts-access-token' ? { discovery: { userinfo_endpoint: `${issuer}${API_USERINFO_PATH}` } } : {}),
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();

  /** Userinfo that takes the API's access token, as Keycloak's and Auth0's do. */
  async function userinfoForApi(req: http.IncomingMessage, res: http.ServerResponse) {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    try {
      const { payload } = await jwtVerify(token ?? '', publicKeys, { issuer, audience });
      const account = accounts.get(String(payload.sub));
      if (!account) throw new Error('no such account');
      userinfoCalls.answered += 1;
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ sub: payload.sub, ...place('userinfo', account) }));
    } catch {
      userinfoCalls.refused += 1;
      res.writeHead(401, { 'www-authenticate': 'Bearer error="invalid_token"' }).end();
    }
  }

  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === API_USERINFO_PATH) return void userinfoForApi(req, res);
    if (path.startsWith('/interaction/')) {
      return void interaction(req, res).catch((error: unknown) => res.writeHead(500).end(String(error)));
    }
    if (path === '/me') {
      // Counts oidc-provider's own userinfo answers and refusals too.
      res.on('finish', () => (res.statusCode === 200 ? (userinfoCalls.answered += 1) : (userinfoCalls.refused += 1)));
    }
    handle(req, res);
  });

  /**
   * The sign-in: the account `login_hint` names at once (the tests' code flow), else a one-field
   * form for a browser (the account id), posted back here.
   */
  async function interaction(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    let accountId = details.params.login_hint as string | undefined;
    if (!accountId && req.method === 'POST') {
      let body = '';
      for await (const chunk of req) body += String(chunk);
      accountId = new URLSearchParams(body).get('account') ?? undefined;
    }
    if (!accountId || !accounts.has(accountId)) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(
        `<!doctype html><html lang="en"><title>Second provider</title><link rel="icon" href="data:,"><main><h1>Second provider</h1><form method="post" action="/interaction/${details.uid}">` +
          '<label>Account <input name="account" autocomplete="username"></label> <button type="submit">Continue</button></form></main></html>',
      );
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId } }, { mergeWithLastSubmission: false });
  }

  async function signIn(accountId: string) {
    const cookies = new Map<string, string>();
    const get = async (url: string) => {
      const response = await fetch(new URL(url, base), {
        redirect: 'manual',
        headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const [name, value] = pair.split('=');
        cookies.set(name, value);
      }
      return response;
    };
    const verifier = randomBytes(32).toString('base64url');
    const authorize = new URL(`${base}/auth`);
    authorize.search = new URLSearchParams({
      client_id: clientId, response_type: 'code', redirect_uri: REDIRECT_URI, scope: 'openid profile email',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
      state: randomBytes(8).toString('hex'), login_hint: accountId,
    }).toString();
    let response = await get(authorize.href);
    // /auth → /interaction/<uid> → /auth/<uid> → the redirect URI with the code.
    for (let hop = 0; hop < 5 && !response.headers.get('location')?.startsWith(REDIRECT_URI); hop++) {
      const location = response.headers.get('location');
      if (!location) throw new Error(`sign-in stopped at ${response.status}: ${await response.text()}`);
      response = await get(location);
    }
    const code = new URL(response.headers.get('location')!).searchParams.get('code');
    if (!code) throw new Error(`no code: ${response.headers.get('location')}`);
    const token = await fetch(`${base}/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId, code_verifier: verifier }),
    });
    if (!token.ok) throw new Error(`token endpoint answered ${token.status}: ${await token.text()}`);
    return (await token.json()) as { access_token: string; id_token: string };
  }

  return {
    issuer,
    clientId,
    audience,
    addAccount: (id, account) => void accounts.set(id, account),
    signIn,
    userinfoCalls,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
