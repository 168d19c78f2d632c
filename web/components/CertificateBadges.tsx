/**
 * The status badges of a certificate (SPEC.md §2): Approved, Revoked or Not approved; Valid or
 * Not valid; Expiry acknowledged. Shared by the certificate screens and a member's Certificates
 * tab. The theme (web/theme.ts) keeps their text above 4.5:1 on the tint.
 */
import { Badge, Group } from '@mantine/core';
import { certificateStatus, type CertificateDates } from '../../common/status';

function StatusBadge({ color, children }: { color: string; children: string }) {
  return (
    <Badge color={color} variant="light" size="sm">
      {children}
    </Badge>
  );
}

const APPROVAL = {
  APPROVED: { color: 'green', text: 'Approved' },
  REVOKED: { color: 'red', text: 'Revoked' },
  NOT_APPROVED: { color: 'orange', text: 'Not approved' },
} as const;

export function CertificateBadges({ certificate, now }: { certificate: CertificateDates; now: Date }) {
  const status = certificateStatus(certificate, now);
  const approval = APPROVAL[status.approval];
  return (
    <Group gap={6} wrap="wrap">
      <StatusBadge color={approval.color}>{approval.text}</StatusBadge>
      {/* Beside Revoked a green Valid read as "fine": the dates still say valid (SPEC.md keeps the two apart), shown neutrally. */}
      {status.valid ? <StatusBadge color={status.approval === 'REVOKED' ? 'gray' : 'teal'}>Valid</StatusBadge> : <StatusBadge color="gray">Not valid</StatusBadge>}
      {status.expiry_acknowledged ? <StatusBadge color="blue">Expiry acknowledged</StatusBadge> : null}
    </Group>
  );
}
