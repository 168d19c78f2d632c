/**
 * GET .../members/{memberId}/status?email: whether and how a person can sign in, following the
 * same steps as sign-in itself (auth/actor.ts): a member by email, else exactly one organization
 * trusting the domain, and bans on the way. Tells only of organizations the caller can read.
 */
import type { Db } from '../../db/database';
import type { MemberStatus } from '../../../common/schemas/member';
import type { RequestActor } from '../../auth/actor';
import { authorize } from '../../access/authorize';
import { readableOrganizationIds } from '../../access/tree';
import * as repo from './repository';
import { MISSING, memberOf } from './service';

type Verdict = Omit<MemberStatus, 'email' | 'organization_name' | 'severity'> & {
  organization_id: string | null;
  name: string | null;
  /** The organizations the answer tells about, when more than `organization_id`. */
  concerns?: string[];
};
async function verdict(db: Db, email: string): Promise<Verdict> {
  const member = await repo.findMemberByEmail(db, email);
  if (member) {
    const organization = member.organization_name;
    const base = { organization_id: member.organization_id, name: member.organization_name, can_sign_in: false };
    if (member.date_organization_banned) {
      return { ...base, status: 'BANNED_ORGANIZATION', message: `${email} is a member of ${organization}, which is banned: they cannot sign in.` };
    }
    if (member.date_member_banned) {
      return { ...base, status: 'BANNED_MEMBER', message: `${email} is a banned member of ${organization}: they cannot sign in.` };
    }
    return { ...base, can_sign_in: true, status: 'MEMBER', message: `${email} signs in as a member of ${organization}.` };
  }
  const domain = email.split('@')[1] ?? '';
  const trusting = await repo.organizationsTrusting(db, domain);
  if (trusting.length > 1) {
    return {
      organization_id: null, name: null, can_sign_in: false, status: 'AMBIGUOUS_DOMAIN', concerns: trusting.map((o) => o.organization_id),
      message: `${email} is no member, and ${domain} is trusted by more than one organization, so sign-in admits nobody by it.`,
    };
  }
  if (trusting.length === 1) {
    const [organization] = trusting;
    const name = organization.organization_name;
    if (organization.date_organization_banned) {
      return {
        organization_id: organization.organization_id, name: organization.organization_name, can_sign_in: false, status: 'BANNED_ORGANIZATION',
        message: `${email} would join ${name} through the trusted domain ${domain}, but ${name} is banned: they cannot sign in.`,
      };
    }
    return {
      organization_id: organization.organization_id, name: organization.organization_name, can_sign_in: true, status: 'TRUSTED_DOMAIN',
      message: `${email} is no member yet; at the first sign-in with a verified address they join ${name} as MEMBER through the trusted domain ${domain}.`,
    };
  }
  return {
    organization_id: null, name: null, can_sign_in: false, status: 'UNKNOWN',
    message: `${email} is no member and no organization trusts ${domain}: sign-in ends at the unknown-organization page.`,
  };
}

export async function signInStatus(db: Db, actor: RequestActor, organizationId: string, memberId: string, email: string | undefined) {
  await authorize(db, actor, 'read', organizationId, MISSING);
  const member = await memberOf(db, organizationId, memberId);
  const address = email ?? member.member_email;
  const readable = await readableOrganizationIds(db, actor);
  const isReadable = (id: string | null) => !!id && (readable === 'all' || readable.includes(id));
  const found = await verdict(db, address);
  // Only answers about the caller's own organizations: of anyone else it says no more than that,
  // so nobody learns who is a (banned) member of another tenant, or which domains others trust.
  // "Nowhere" gets the same answer as "elsewhere": a different one would tell them apart (issue 30).
  // Only a caller who reads every organization learns that nobody trusts the domain.
  const concerned = found.concerns ?? (found.organization_id ? [found.organization_id] : []);
  const visible = concerned.length === 0 ? readable === 'all' : concerned.some(isReadable);
  const result: Verdict = visible ? found : {
    organization_id: null, name: null, can_sign_in: false, status: 'UNKNOWN',
    message: `${address} does not sign in to any organization you can see.`,
  };
  return {
    email: address,
    status: result.status,
    can_sign_in: result.can_sign_in,
    organization_name: isReadable(result.organization_id) ? result.name : null,
    message: result.message,
    severity: result.can_sign_in ? 'INFO' : 'WARNING',
  } satisfies MemberStatus;
}
