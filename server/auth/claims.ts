/**
 * Where a provider keeps the person's email, its verification and name (OIDC_EMAIL_CLAIM and
 * friends), and how the identity is read from the claims at hand: the access token, the web app's
 * ID token, the userinfo answer, in that order (DECISIONS.md "Sign-in").
 */

export interface ClaimMapping {
  /** Tried in order: the first that holds an address is the email. */
  email: string[];
  /** Says the provider verified that email: `true`, or the string "true". */
  emailVerified: string;
  name: string;
  givenName: string;
  familyName: string;
}

/** The OpenID Connect standard claims: Keycloak, Auth0, Dex, Okta and the built-in provider send them. */
export const DEFAULT_CLAIMS: ClaimMapping = {
  email: ['email'],
  emailVerified: 'email_verified',
  name: 'name',
  givenName: 'given_name',
  familyName: 'family_name',
};

export type Claims = Record<string, unknown>;

/** Where a set of claims came from, as the log and the refusal name it. */
export type ClaimSource = 'access token' | 'ID token' | 'userinfo';

/**
 * A claim by name, else by dotted path: `https://example.com/email` is one (namespaced) name,
 * `profile.email` the member `email` of the object `profile`.
 */
function claimAt(claims: Claims, path: string): unknown {
  if (path in claims) return claims[path];
  let value: unknown = claims;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
    value = (value as Claims)[part];
  }
  return value;
}

const text = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

/** Something that reads as one email address (a Keycloak username or an Entra phone sign-in does not). */
const address = (v: unknown) => {
  const t = text(v);
  return t && /^[^\s@]+@[^\s@]+$/.test(t) ? t.toLowerCase() : null;
};

/** A verification claim says yes: `true`, or the string "true" that some providers send. */
const affirmed = (v: unknown) => v === true || (typeof v === 'string' && v.trim().toLowerCase() === 'true');

export interface Resolved {
  email: string | null;
  /** Where the email was found. */
  emailFrom: ClaimSource | null;
  email_verified: boolean;
  /** Whether any source said anything about the verification (a missing claim is a setting to fix). */
  verificationStated: boolean;
  name: string | null;
  given_name: string | null;
  family_name: string | null;
}

interface Source {
  from: ClaimSource;
  claims: Claims;
}

/**
 * The person as the sources tell it. The email is the first address the mapping finds, source by
 * source; its verification is read from a source that names that same address or none (all are the
 * same provider's word about one subject, but a claim about another address proves nothing).
 */
export function resolveClaims(sources: Source[], mapping: ClaimMapping, trustEmail: boolean): Resolved {
  const emailOf = (claims: Claims) => mapping.email.map((path) => address(claimAt(claims, path))).find(Boolean) ?? null;
  const found = sources.map((source) => ({ ...source, email: emailOf(source.claims) }));
  const first = found.find((source) => source.email);
  const email = first?.email ?? null;
  const stating = found.find(
    (source) => claimAt(source.claims, mapping.emailVerified) !== undefined && (source.email === null || source.email === email),
  );
  const firstText = (path: string) => sources.map((source) => text(claimAt(source.claims, path))).find(Boolean) ?? null;
  return {
    email,
    emailFrom: first?.from ?? null,
    email_verified: email !== null && (trustEmail || (stating !== undefined && affirmed(claimAt(stating.claims, mapping.emailVerified)))),
    verificationStated: trustEmail || stating !== undefined,
    name: firstText(mapping.name),
    given_name: firstText(mapping.givenName),
    family_name: firstText(mapping.familyName),
  };
}

/** Whether the sources so far settle who it is: an email, and (unless every email is trusted) its verification. */
export const complete = (resolved: Resolved) => resolved.email !== null && resolved.verificationStated;

/**
 * Claims (names or paths, never values) that hold an address although the mapping does not
 * read them: what an operator may point OIDC_EMAIL_CLAIM at (Entra ID: `upn`, `preferred_username`).
 */
export function addressClaims(sources: Source[], mapping: ClaimMapping): string[] {
  const names = new Set<string>();
  const visit = (claims: Claims, prefix: string, depth: number) => {
    for (const [key, value] of Object.entries(claims)) {
      const path = prefix ? `${prefix}.${key}` : key;
      if (address(value) && !mapping.email.includes(path)) names.add(path);
      else if (value && typeof value === 'object' && !Array.isArray(value) && depth < 3) visit(value as Claims, path, depth + 1);
    }
  };
  for (const source of sources) visit(source.claims, '', 0);
  return [...names];
}
