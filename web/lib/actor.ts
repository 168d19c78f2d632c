/**
 * The actor for common/policy.ts checks in the browser: the signed-in member's profile with its
 * role assignments, plus the roles the current organization reports for the caller (SPEC.md §2
 * "choosing one loads the member's roles for it"). The server decides; this only shows or hides.
 */
import { useMemo } from 'react';
import { useParams } from 'react-router';
import type { Action, Actor, Assignment, GlobalAction } from '../../common/policy';
import type { Profile } from '../../common/schemas/profile';
import type { Organization } from '../../common/schemas/organization';
import { useCurrentOrganization, useProfile, useSession } from './session';

function buildActor(profile: Profile | null, organization: Organization | null): Actor | null {
  if (!profile) return null;
  const roles: Assignment[] = [...profile.roles];
  const key = (a: { organization_id: string; role: string; scope: string }) => `${a.organization_id}|${a.role}|${a.scope}`;
  const known = new Set(roles.map(key));
  for (const role of organization?.roles ?? []) {
    if (known.has(key(role))) continue;
    // The organization's list names the assignment's organization but not its role; take it
    // from the profile's assignments of that organization, or from the organization itself.
    const organizationRole =
      profile.roles.find((a) => a.organization_id === role.organization_id)?.organization_role ??
      (role.organization_id === profile.organization_id ? profile.organization_role : undefined) ??
      (role.organization_id === organization?.organization_id ? organization.organization_role : undefined);
    if (!organizationRole) continue;
    roles.push({ ...role, organization_role: organizationRole });
    known.add(key(role));
  }
  return {
    member_id: profile.member_id,
    organization_id: profile.organization_id,
    organization_role: profile.organization_role,
    roles,
  };
}

export function useActor(): Actor | null {
  const { profile, organization } = useSession();
  return useMemo(() => buildActor(profile, organization), [profile, organization]);
}

/**
 * "May I do this here?" for an action in an organization: the `abilities` the server computed for
 * the caller on it (common/policy.ts), so the screens copy no rule.
 */
export function allowedIn(organization: Pick<Organization, 'abilities'> | null | undefined, action: Action): boolean {
  return !!organization?.abilities.includes(action);
}

/** `allowedIn` for the organization of the current /organizations/:orgId/... route (false until it is loaded). */
export function useAllowedHere(action: Action): boolean {
  const { orgId } = useParams();
  const organization = useCurrentOrganization();
  return !!orgId && organization?.organization_id === orgId && allowedIn(organization, action);
}

/** Whether the signed-in member may take this global action: the profile's `abilities`, as the server computed them. */
export function hasAbility(profile: Profile | null, action: GlobalAction): boolean {
  // A profile stored before the abilities were sent has none: the next sign-in brings them.
  const abilities: readonly GlobalAction[] | undefined = profile?.abilities;
  return !!abilities?.includes(action);
}

export function useAbility(action: GlobalAction): boolean {
  return hasAbility(useProfile(), action);
}
