/**
 * The part of oidc-provider v9 that the portal uses. The package ships no types and
 * @types/oidc-provider is not a dependency; this keeps the provider code type-checked.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface AdapterPayload {
    [key: string]: unknown;
    grantId?: string;
    userCode?: string;
    uid?: string;
    consumed?: number;
  }

  export interface Adapter {
    upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void>;
    find(id: string): Promise<AdapterPayload | undefined>;
    findByUserCode(userCode: string): Promise<AdapterPayload | undefined>;
    findByUid(uid: string): Promise<AdapterPayload | undefined>;
    consume(id: string): Promise<void>;
    destroy(id: string): Promise<void>;
    revokeByGrantId(grantId: string): Promise<void>;
  }

  export interface Account {
    accountId: string;
    claims(use: string, scope: string, claims: unknown, rejected: string[]): Promise<Record<string, unknown>>;
  }

  export interface Client {
    clientId: string;
    grantTypeAllowed(type: string): boolean;
    clientAuthMethod: string;
  }

  export class Grant {
    constructor(init: { accountId?: string; clientId?: string });
    jti: string;
    accountId?: string;
    clientId?: string;
    addOIDCScope(scope: string | string[] | Set<string>): void;
    addOIDCClaims(claims: string[] | Set<string>): void;
    addResourceScope(resource: string, scope: string | string[] | Set<string>): void;
    save(ttl?: number): Promise<string>;
    static find(id: string): Promise<Grant | undefined>;
  }

  export interface Interaction {
    uid: string;
    prompt: { name: string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId: string; uid: string };
    grantId?: string;
    returnTo: string;
  }

  export interface OIDCContext {
    provider: Provider;
    client?: Client;
    session: { accountId?: string; grantIdFor(clientId: string): string | undefined };
    result?: { consent?: { grantId?: string } };
    params: Record<string, unknown>;
    entities: Record<string, unknown>;
    route: string;
    requestParamScopes: Set<string>;
    requestParamOIDCScopes: Set<string>;
    requestParamClaims: Set<string>;
  }

  export interface KoaContextWithOIDC {
    oidc: OIDCContext;
    req: IncomingMessage;
    type: string;
    body: unknown;
    status: number;
    host: string;
  }

  /** Tokens as the hooks see them (AccessToken, RefreshToken, ...). */
  export interface Token {
    kind: string;
    accountId?: string;
    resourceServer?: { accessTokenTTL?: number };
    totalLifetime?(): number;
    isSenderConstrained(): boolean;
  }

  export interface ResourceServerInfo {
    scope: string;
    audience?: string;
    accessTokenTTL?: number;
    accessTokenFormat?: 'opaque' | 'jwt';
    jwt?: { sign?: { alg: string } };
  }

  type Ctx = KoaContextWithOIDC;
  type Ttl = number | ((ctx: Ctx, token: Token, client: Client) => number);

  export interface Configuration {
    adapter?: (name: string) => Adapter;
    clients?: Array<Record<string, unknown>>;
    findAccount?: (ctx: Ctx, sub: string, token?: Token) => Promise<Account | undefined>;
    jwks?: { keys: object[] };
    cookies?: { keys?: string[]; names?: Record<string, string>; long?: object; short?: object };
    claims?: Record<string, string[] | null>;
    scopes?: string[];
    conformIdTokenClaims?: boolean;
    clientBasedCORS?: (ctx: Ctx, origin: string, client: Client) => boolean;
    pkce?: { required?: (ctx: Ctx, client: Client) => boolean };
    ttl?: Record<string, Ttl>;
    interactions?: { url?: (ctx: Ctx, interaction: Interaction) => string | Promise<string> };
    loadExistingGrant?: (ctx: Ctx) => Promise<Grant | undefined>;
    issueRefreshToken?: (ctx: Ctx, client: Client, code: Token) => Promise<boolean>;
    extraTokenClaims?: (ctx: Ctx, token: Token) => Promise<Record<string, unknown> | undefined>;
    renderError?: (ctx: Ctx, out: Record<string, string>, error: Error) => Promise<void>;
    features?: {
      [name: string]: unknown;
      devInteractions?: { enabled: boolean };
      resourceIndicators?: {
        enabled: boolean;
        defaultResource?: (ctx: Ctx, client: Client, oneOf?: string[]) => Promise<string | string[] | undefined>;
        getResourceServerInfo?: (ctx: Ctx, resource: string, client: Client) => Promise<ResourceServerInfo>;
        useGrantedResource?: (ctx: Ctx, model: unknown) => Promise<boolean>;
      };
      rpInitiatedLogout?: {
        enabled: boolean;
        logoutSource?: (ctx: Ctx, form: string) => Promise<void>;
        postLogoutSuccessSource?: (ctx: Ctx) => Promise<void>;
      };
    };
  }

  export interface InteractionResults {
    login?: { accountId: string; remember?: boolean; acr?: string; amr?: string[]; ts?: number };
    consent?: { grantId?: string };
    error?: string;
    error_description?: string;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    proxy: boolean;
    Grant: typeof Grant;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionResult(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<string>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: InteractionResults,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
    on(event: string, listener: (...args: any[]) => void): this;
  }

  export const errors: {
    OIDCProviderError: new (status: number, message: string) => Error & { status: number; error: string };
    InvalidTarget: new (description?: string) => Error;
    SessionNotFound: new (description?: string) => Error;
  };

  export default Provider;
}
