/**
 * Invitations (issue 34 item 2; docs/decisions.md "Invitations"): how long one lasts and what state its dates
 * say it is in, for the server (which accepts only a pending one) and the screens alike.
 */

/** An invitation lasts 7 days from its last sending (a resend renews it). */
export const INVITATION_DAYS = 7;
export const INVITATION_MS = INVITATION_DAYS * 86_400_000;

export const INVITATION_STATUSES = ['PENDING', 'ACCEPTED', 'REVOKED', 'EXPIRED'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

/** Accepted or revoked for good; otherwise pending while now < date_expires (exclusive), then expired. */
export function invitationStatus(
  invitation: { date_accepted: string | null; date_revoked: string | null; date_expires: string }, now: Date,
): InvitationStatus {
  if (invitation.date_accepted) return 'ACCEPTED';
  if (invitation.date_revoked) return 'REVOKED';
  return now.getTime() < new Date(invitation.date_expires).getTime() ? 'PENDING' : 'EXPIRED';
}
