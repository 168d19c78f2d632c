/**
 * The buttons of the details page (SPEC.md §2): Approve, Reject, Renew and 'No renew', each
 * shown only when the license's state allows it (common/status.ts) and the caller's roles in its
 * organization do (SPEC.md §6). Reject and 'No renew' are final, so they ask first. A refusal
 * (409: changed meanwhile, wrong state) arrives as a toast from lib/api.ts and the details are
 * fetched again.
 */
import { useState } from 'react';
import { Button, Group } from '@mantine/core';
import { IconCheck, IconClockCheck, IconRefresh, IconX } from '@tabler/icons-react';
import type { License } from '../../../../common/schemas/license';
import type { LicenseStatus } from '../../../../common/status';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { notifySuccess } from '../../../lib/notifications';
import { useAcknowledgeLicenseExpiry } from '../api/acknowledge-license-expiry';
import { useRejectLicense } from '../api/reject-license';
import { useRenewLicense } from '../api/renew-license';

type Confirming = 'reject' | 'acknowledge' | null;

export interface LicenseActionsProps {
  license: License;
  status: LicenseStatus;
  /** Approve sends the edited license: the page owns the form, so it owns this call too. */
  onApprove: () => void;
  approving: boolean;
}

export function LicenseActions({ license, status, onApprove, approving }: LicenseActionsProps) {
  // What the caller's roles allow on it, as the server decided (common/policy.ts); the status decides the rest.
  const may = {
    approve: license.abilities.includes('license.approve'),
    reject: license.abilities.includes('license.reject'),
    renew: license.abilities.includes('license.renew'),
    acknowledge: license.abilities.includes('license.acknowledgeExpiry'),
  };
  const reject = useRejectLicense();
  const renew = useRenewLicense();
  const acknowledge = useAcknowledgeLicenseExpiry();
  const [confirming, setConfirming] = useState<Confirming>(null);

  const ref = { licenseId: license.license_id, version: license.version };
  const busy = approving || reject.isPending || renew.isPending || acknowledge.isPending;
  const close = () => setConfirming(null);
  const done = (message: string) => () => {
    setConfirming(null);
    notifySuccess(message);
  };

  const buttons = [
    status.can_approve && may.approve ? (
      <Button key="approve" leftSection={<IconCheck size={16} aria-hidden />} loading={approving} disabled={busy} onClick={onApprove}>
        Approve
      </Button>
    ) : null,
    status.can_reject && may.reject ? (
      <Button key="reject" variant="outline" color="red.9" leftSection={<IconX size={16} aria-hidden />} disabled={busy} onClick={() => setConfirming('reject')}>
        Reject
      </Button>
    ) : null,
    status.can_renew && may.renew ? (
      <Button
        key="renew"
        leftSection={<IconRefresh size={16} aria-hidden />}
        loading={renew.isPending}
        disabled={busy}
        onClick={() =>
          renew.mutate(ref, { onSuccess: (successor) => notifySuccess(`Renewal ${successor.license_name} requested; it waits for approval.`) })
        }
      >
        Renew
      </Button>
    ) : null,
    status.can_acknowledge_expiry && may.acknowledge ? (
      <Button key="acknowledge" variant="default" leftSection={<IconClockCheck size={16} aria-hidden />} disabled={busy} onClick={() => setConfirming('acknowledge')}>
        No renew
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
        opened={confirming === 'reject'}
        title="Reject license?"
        confirmLabel="Reject"
        pending={reject.isPending}
        onClose={close}
        onConfirm={() => reject.mutate(ref, { onSuccess: done(`License ${license.license_name} rejected.`), onError: close })}
      >
        The request {license.license_name} will be rejected. A rejection is final: the license cannot be approved afterwards.
      </ConfirmModal>
      <ConfirmModal
        opened={confirming === 'acknowledge'}
        title="Do not renew this license?"
        confirmLabel="No renew"
        pending={acknowledge.isPending}
        onClose={close}
        onConfirm={() =>
          acknowledge.mutate(ref, { onSuccess: done(`Expiry of ${license.license_name} acknowledged; it will not be renewed.`), onError: close })
        }
      >
        {license.license_name} has expired. Acknowledging its expiry means it will not be renewed, and it leaves the pending tasks.
      </ConfirmModal>
    </>
  );
}
