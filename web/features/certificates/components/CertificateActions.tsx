/**
 * The buttons of the details page (SPEC.md §2): Remove, Acknowledge expiry, Revoke, Approve, each
 * shown only when the certificate's state allows it (common/status.ts) and the caller's roles in
 * its organization do (SPEC.md §6). Revoke and Remove ask first. After an action: a toast, then
 * back one page. A refusal (409) arrives as a toast from lib/api.ts and the page stays.
 */
import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { IconCheck, IconCircleX, IconClockCheck, IconTrash } from '@tabler/icons-react';
import type { Certificate } from '../../../../common/schemas/certificate';
import { certificateStatus } from '../../../../common/status';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { notifySuccess } from '../../../lib/notifications';
import { useAcknowledgeCertificateExpiry } from '../api/acknowledge-certificate-expiry';
import { useApproveCertificate } from '../api/approve-certificate';
import { useRemoveCertificate } from '../api/remove-certificate';
import { useRevokeCertificate } from '../api/revoke-certificate';
import { certificatesPath } from '../paths';
import { useGoBack } from './useGoBack';

type Confirming = 'revoke' | 'remove' | null;

/** `now`: the time the page computes statuses with (useStatusClock). */
export function CertificateActions({ certificate, now }: { certificate: Certificate; now: Date }) {
  const ref = { organizationId: certificate.organization_id, dn: certificate.distinguished_name };
  const status = certificateStatus(certificate, now);
  // What the caller's roles allow on it, as the server decided (common/policy.ts); the status decides the rest.
  const may = {
    approve: certificate.abilities.includes('certificate.approve'),
    revoke: certificate.abilities.includes('certificate.revoke'),
    remove: certificate.abilities.includes('certificate.remove'),
    acknowledge: certificate.abilities.includes('certificate.acknowledgeExpiry'),
  };
  const approve = useApproveCertificate();
  const revoke = useRevokeCertificate();
  const remove = useRemoveCertificate();
  const acknowledge = useAcknowledgeCertificateExpiry();
  const goBack = useGoBack(certificatesPath(certificate.organization_id));
  const [confirming, setConfirming] = useState<Confirming>(null);

  // A refusal's message is already a toast: close the question so the page shows again.
  const close = () => setConfirming(null);
  const busy = approve.isPending || revoke.isPending || remove.isPending || acknowledge.isPending;
  const done = (message: string) => () => {
    setConfirming(null);
    notifySuccess(message);
    goBack();
  };

  const buttons = [
    status.can_remove && may.remove ? (
      <Button key="remove" variant="outline" color="red.9" leftSection={<IconTrash size={16} aria-hidden />} disabled={busy} onClick={() => setConfirming('remove')}>
        Remove
      </Button>
    ) : null,
    status.can_acknowledge_expiry && may.acknowledge ? (
      <Button
        key="acknowledge"
        variant="default"
        leftSection={<IconClockCheck size={16} aria-hidden />}
        loading={acknowledge.isPending}
        disabled={busy}
        onClick={() => acknowledge.mutate(ref, { onSuccess: done('Certificate expiry acknowledged.') })}
      >
        Acknowledge expiry
      </Button>
    ) : null,
    status.can_revoke && may.revoke ? (
      <Button key="revoke" color="red.9" leftSection={<IconCircleX size={16} aria-hidden />} disabled={busy} onClick={() => setConfirming('revoke')}>
        Revoke
      </Button>
    ) : null,
    status.can_approve && may.approve ? (
      <Button
        key="approve"
        leftSection={<IconCheck size={16} aria-hidden />}
        loading={approve.isPending}
        disabled={busy}
        onClick={() => approve.mutate(ref, { onSuccess: done('Certificate approved.') })}
      >
        Approve
      </Button>
    ) : null,
  ].filter(Boolean);

  if (buttons.length === 0) return null;

  return (
    <>
      <Group gap="sm" wrap="wrap">
        {buttons}
      </Group>
      <ConfirmModal
        opened={confirming === 'revoke'}
        title="Revoke certificate?"
        confirmLabel="Revoke"
        pending={revoke.isPending}
        onClose={close}
        onConfirm={() => revoke.mutate(ref, { onSuccess: done('Certificate revoked.'), onError: close })}
      >
        {certificate.distinguished_name} will no longer be trusted. Revocation is final: the certificate cannot be
        approved again.
      </ConfirmModal>
      <ConfirmModal
        opened={confirming === 'remove'}
        title="Remove certificate?"
        confirmLabel="Remove"
        pending={remove.isPending}
        onClose={close}
        onConfirm={() => remove.mutate(ref, { onSuccess: done('Certificate removed.'), onError: close })}
      >
        {certificate.distinguished_name} will be deleted from the portal. This cannot be undone.
      </ConfirmModal>
    </>
  );
}
