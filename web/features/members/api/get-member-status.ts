/**
 * GET .../members/{memberId}/status?email: whether and how a person with this email can sign in
 * (docs/decisions.md "Sign-in status"). Asked on demand (the Check button), never cached.
 */
import { useMutation } from '@tanstack/react-query';
import type { MemberStatus } from '../../../../common/schemas/member';
import { api } from '../../../lib/api';
import { memberPath, type MemberRef } from './keys';

function getMemberStatus({ organizationId, memberId, email }: MemberRef & { email: string }): Promise<MemberStatus> {
  return api<MemberStatus>(`${memberPath(organizationId, memberId)}/status`, { query: { email } });
}

export function useMemberStatusCheck() {
  return useMutation({ mutationFn: getMemberStatus });
}
