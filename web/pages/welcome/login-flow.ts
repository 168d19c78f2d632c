/**
 * Welcome's work (SPEC.md §2): `login` signs in (or finishes a sign-in), loads the member
 * profile, stores user and organization and goes to that organization's Certificates (Pending Tasks
 * for those who settle approvals while some wait, issue 34), or back to the page the person first
 * asked for; `logout` signs out at the provider.
 */
import { abilitiesOn, OBJECT_ACTIONS } from '../../../common/policy';
import type { Organization } from '../../../common/schemas/organization';
import type { Profile } from '../../../common/schemas/profile';
import { getProfile } from '../../features/auth/api/get-profile';
import { getOrganization } from '../../api/get-organization';
import { ApiError, NetworkError } from '../../lib/api';
import { dropUser, getUser, resetSignInAttempts, signIn, signOut, SignInLoopError } from '../../lib/auth';
import { hasAbility } from '../../lib/actor';
import { hasPendingApprovals } from '../../features/admin/pending/api/get-pending';
import { navigateTo, organizationPath, PATHS, PENDING_TASKS_PATH } from '../../lib/navigation';
import { queryClient } from '../../lib/query';
import { AUTH_FAILED, session } from '../../lib/session';

/** What Welcome shows when the flow stops here rather than leaving the page. */
export type Outcome = 'left' | 'prompt';

/** Until GET /api/organizations/{id} answers: the organization as the profile describes it. */
function organizationOfProfile(profile: Profile): Organization {
  return {
    organization_id: profile.organization_id,
    organization_name: profile.organization_name,
    organization_role: profile.organization_role,
    parent_organization: null,
    parent_organization_name: null,
    website: null,
    logo_url: null,
    address: null,
    domains: [],
    ban_note: null,
    date_organization_banned: null,
    roles: profile.roles
      .filter((r) => r.organization_id === profile.organization_id)
      .map(({ organization_id, role, scope }) => ({ organization_id, role, scope })),
    // Its own roles decide in one's own organization (the ancestors matter only to MANAGED roles above it).
    abilities: abilitiesOn(profile, OBJECT_ACTIONS.organization, { organization_id: profile.organization_id, ancestor_ids: [] }),
  };
}

async function startSignIn(): Promise<Outcome> {
  await signIn(readReturnUrl());
  return 'left';
}

function readReturnUrl(): string | null {
  const url = session.takeReturnUrl();
  session.setReturnUrl(url); // keep it until the sign-in completes
  return url;
}

async function loadMember(): Promise<Outcome> {
  const profile = await getProfile();
  if (!profile || !profile.member_id) {
    navigateTo(PATHS.accessError, { replace: true });
    return 'left';
  }
  // A different person may have signed in: nothing cached for the previous one survives.
  queryClient.clear();
  session.setProfile(profile);
  // Whoever settles approvals lands on Pending Tasks while some wait (the server's ability, not a rule of ours).
  const pendingWork = hasAbility(profile, 'approval.review') ? hasPendingApprovals() : Promise.resolve(false);
  const organization = await getOrganization(profile.organization_id, { quiet: true }).catch(() =>
    organizationOfProfile(profile),
  );
  const landing = (await pendingWork) ? PENDING_TASKS_PATH : organizationPath(profile.organization_id);
  session.setOrganization(organization);
  session.setAuthError(null);
  session.setLoggedOut(false);
  resetSignInAttempts();
  navigateTo(session.takeReturnUrl() ?? landing, { replace: true });
  return 'left';
}

/** Whether lib/api.ts went to another screen for this failure. */
function movedOn(error: ApiError): boolean {
  const message = (error.body as { message?: unknown } | null)?.message;
  return error.status === 403 || error.status === 500 || (error.status >= 502 && error.status <= 504 && typeof message !== 'string');
}

let inFlight: Promise<Outcome> | null = null;

/**
 * Signs in or finishes a sign-in. One flow at a time: the router may start it before Welcome has
 * rendered (web/router.tsx), and Welcome then waits for the same one.
 */
export function login(): Promise<Outcome> {
  inFlight ??= runLogin().finally(() => {
    inFlight = null;
  });
  return inFlight;
}

async function runLogin(): Promise<Outcome> {
  try {
    const user = await getUser();
    if (!user || (user.expired && !user.refresh_token)) return await startSignIn();
    try {
      return await loadMember();
    } catch (error) {
      // The API refused the token: lib/api.ts dropped it; sign in afresh (the loop guard stops
      // a provider and an API that disagree forever).
      if (error instanceof ApiError && (error.status === 401 || error.status === 499)) {
        await dropUser();
        return await startSignIn();
      }
      throw error;
    }
  } catch (error) {
    if (error instanceof NetworkError) return 'left'; // lib/api.ts went to NetworkError
    if (error instanceof ApiError) {
      // "Failed profile call: the error is stored" (SPEC.md §8); 403, 500 and a silent 502-504
      // have already moved to their screens (lib/api.ts), other failures stay on Welcome with the
      // message (a 503 that says the provider did not answer, for one).
      session.setAuthError(error.message);
      return movedOn(error) ? 'left' : 'prompt';
    }
    if (!(error instanceof SignInLoopError)) console.error('sign-in failed', error);
    session.setAuthError(AUTH_FAILED);
    return 'prompt';
  }
}

export async function logout(): Promise<Outcome> {
  session.setLoggedOut(true);
  session.clear();
  session.setReturnUrl(null);
  queryClient.clear();
  const how = await signOut().catch(() => 'local' as const);
  if (how === 'local') {
    navigateTo(PATHS.login, { replace: true });
    return 'prompt';
  }
  return 'left';
}
