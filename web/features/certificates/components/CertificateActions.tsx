/**
 * The buttons of the details page (SPEC.md §2): Approve, Acknowledge expiry, Revoke, Remove (the plain action
 * first, what takes something away last, in red), each
 * shown only when the certificate's state allows it (common/status.ts) and the caller's roles in
 * its organization do (SPEC.md §6). Revoke and Remove ask first. After an action: a toast, then
 * back one page. A refusal (409) arrives as a toast from lib/api.ts and the page stays.
 */
import { IconCheck, IconCircleX, IconClockCheck, IconTrash } from '@tabler/icons-react';
import type { Certificate } from '../../../../common/schemas/certificate';
import { certificateStatus } from '../../../../common/status';
import { DAY } from '../../../../common/dates';
import { DEFAULT_NOTIFICATION_SETTINGS } from '../../../../common/events';
import { ActionBar, type Action } from '../../../components/ActionBar';
import { DANGER } from '../../../components/danger';
import { useAcknowledgeCertificateExpiry } from '../api/acknowledge-certificate-expiry';
import { useApproveCertificate } from '../api/approve-certificate';
import { useRemoveCertificate } from '../api/remove-certificate';
import { useRevokeCertificate } from '../api/revoke-certificate';
import { certificatesPath } from '../paths';
import { useGoBack } from './useGoBack';

const ICON = { size: 16, 'aria-hidden': true } as const;

/** The widest expiry notice of the default rules (30 days): the time in which acknowledging an expiry means something. */
const NOTICE_WINDOW_MS = Math.max(...DEFAULT_NOTIFICATION_SETTINGS.expiry_days) * DAY;

/**
 * Acknowledge expiry is offered once the expiry is near (within the notice window) or past (docs/decisions.md
 * "Certificates"): 11 months ahead it read as something to do. The API still takes it earlier (SPEC.md §4).
 */
const inNoticeWindow = (certificate: Certificate, now: Date) => Date.parse(certificate.date_not_after) - now.getTime() <= NOTICE_WINDOW_MS;

/** `now`: the time the page computes statuses with (useStatusClock). */
export function CertificateActions({ certificate, now }: { certificate: Certificate; now: Date }) {
  const ref = { organizationId: certificate.organization_id, dn: certificate.distinguished_name };
  const status = certificateStatus(certificate, now);
  // What the caller's roles allow on it, as the server decided (common/policy.ts); the status decides the rest.
  const may = (ability: Certificate['abilities'][number]) => certificate.abilities.includes(ability);
  const approve = useApproveCertificate();
  const revoke = useRevokeCertificate();
  const remove = useRemoveCertificate();
  const acknowledge = useAcknowledgeCertificateExpiry();
  const goBack = useGoBack(certificatesPath(certificate.organization_id));
  const dn = certificate.distinguished_name;

  const actions: Action[] = [
    {
      key: 'approve',
      label: 'Approve',
      icon: <IconCheck {...ICON} />,
      shown: status.can_approve && may('certificate.approve'),
      run: () => approve.mutateAsync(ref),
      success: 'Certificate approved.',
    },
    {
      key: 'acknowledge',
      label: 'Acknowledge expiry',
      icon: <IconClockCheck {...ICON} />,
      variant: 'default',
      shown: status.can_acknowledge_expiry && may('certificate.acknowledgeExpiry') && inNoticeWindow(certificate, now),
      run: () => acknowledge.mutateAsync(ref),
      success: 'Certificate expiry acknowledged.',
    },
    {
      key: 'revoke',
      label: 'Revoke',
      icon: <IconCircleX {...ICON} />,
      ...DANGER,
      shown: status.can_revoke && may('certificate.revoke'),
      run: () => revoke.mutateAsync(ref),
      success: 'Certificate revoked.',
      confirm: {
        title: 'Revoke certificate?',
        label: 'Revoke',
        body: `${dn} will no longer be trusted. Revocation is final: the certificate cannot be approved again.`,
      },
    },
    {
      key: 'remove',
      label: 'Remove',
      icon: <IconTrash {...ICON} />,
      ...DANGER,
      shown: status.can_remove && may('certificate.remove'),
      run: () => remove.mutateAsync(ref),
      success: 'Certificate removed.',
      confirm: { title: 'Remove certificate?', label: 'Remove', body: `${dn} will be deleted from the portal. This cannot be undone.` },
    },
  ];

  return <ActionBar actions={actions} onDone={goBack} />;
}
