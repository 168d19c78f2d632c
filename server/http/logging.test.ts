import { describe, expect, it } from 'vitest';
import { loggedPath } from './logging';

describe('loggedPath', () => {
  it('drops the query and fragment of every URL', () => {
    expect(loggedPath('/auth/callback?code=abc&state=xyz')).toBe('/auth/callback');
    expect(loggedPath('/oidc/session/end?id_token_hint=eyJ.x.y')).toBe('/oidc/session/end');
    expect(loggedPath('/api/members/42/status?email=ada@example.com')).toBe('/api/members/42/status');
    expect(loggedPath('/login#frag')).toBe('/login');
  });

  it("masks the built-in provider's interaction ids, wherever the provider's prefix is", () => {
    const uid = 'Jq2cR8_x-0aBcDeFgHiJk';
    expect(loggedPath(`/oidc/interaction/${uid}`)).toBe('/oidc/interaction/:uid');
    expect(loggedPath(`/oidc/interaction/${uid}/login`)).toBe('/oidc/interaction/:uid/login');
    expect(loggedPath(`/oidc/auth/${uid}?x=1`)).toBe('/oidc/auth/:uid');
    // As oidc-provider sees it, below its mount point.
    expect(loggedPath(`/auth/${uid}`)).toBe('/auth/:uid');
  });

  it('keeps ordinary paths as they are', () => {
    for (const path of ['/auth/callback', '/auth/silent', '/oidc/.well-known/openid-configuration', '/api/organizations/0b7c3c1e-7d7e-4c43-9a4e-5f3b1c2d4e5f/certificates']) {
      expect(loggedPath(path)).toBe(path);
    }
  });
});
