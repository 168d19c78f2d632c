/**
 * The buttons of the details page (SPEC.md §2): Approve, Reject, Renew and 'No renew', each
 * shown only when the license's state allows it (common/status.ts) and the caller's roles in its
 * organization do (SPEC.md §6). Reject and 'No renew' are final, so they ask first. A refusal
 * (409: changed meanwhile, wrong state) arrives as a toast from lib/api.ts and the details are
 * fetched again.
 */
import { IconCheck, IconClockCheck, IconRefresh, IconX } from '@tabler/icons-react';
import type { License } from '../../../../common/schemas/license';
import type { LicenseStatus } from '../../../../common/status';
import { action, ActionBar, type Action } from '../../../components/ActionBar';
import { DANGER } from '../../../components/danger';
import { useAcknowledgeLicenseExpiry } from '../api/acknowledge-license-expiry';
import { useRejectLicense } from '../api/reject-license';
import { useRenewLicense } from '../api/renew-license';

const ICON = { size: 16, 'aria-hidden': true } as const;

export interface LicenseActionsProps {
  license: License;
  status: LicenseStatus;
  /** Approve sends the edited license: the page owns the form, so it owns this call (and its toast) too. */
  onApprove: () => void;
  approving: boolean;
}

export function LicenseActions({ license, status, onApprove, approving }: LicenseActionsProps) {
  // What the caller's roles allow on it, as the server decided (common/policy.ts); the status decides the rest.
  const may = (ability: License['abilities'][number]) => license.abilities.includes(ability);
  const reject = useRejectLicense();
  const renew = useRenewLicense();
  const acknowledge = useAcknowledgeLicenseExpiry();
  const ref = { licenseId: license.license_id, version: license.version };
  const name = license.license_name;

  const actions: Action[] = [
    {
      key: 'approve',
      label: 'Approve',
      icon: <IconCheck {...ICON} />,
      shown: status.can_approve && may('license.approve'),
      run: onApprove,
      pending: approving,
    },
    {
      key: 'reject',
      label: 'Reject',
      icon: <IconX {...ICON} />,
      ...DANGER,
      shown: status.can_reject && may('license.reject'),
      run: () => reject.mutateAsync(ref),
      success: `License ${name} rejected.`,
      confirm: {
        title: 'Reject license?',
        label: 'Reject',
        body: `The request ${name} will be rejected. A rejection is final: the license cannot be approved afterwards.`,
      },
    },
    action({
      key: 'renew',
      label: 'Renew',
      icon: <IconRefresh {...ICON} />,
      shown: status.can_renew && may('license.renew'),
      run: () => renew.mutateAsync(ref),
      success: (successor) => `Renewal ${successor.license_name} requested; it waits for approval.`,
    }),
    {
      key: 'acknowledge',
      label: 'No renew',
      icon: <IconClockCheck {...ICON} />,
      variant: 'default',
      shown: status.can_acknowledge_expiry && may('license.acknowledgeExpiry'),
      run: () => acknowledge.mutateAsync(ref),
      success: `Expiry of ${name} acknowledged; it will not be renewed.`,
      confirm: {
        title: 'Do not renew this license?',
        label: 'No renew',
        body: `${name} has expired. Acknowledging its expiry means it will not be renewed, and it leaves the pending tasks.`,
      },
    },
  ];

  return <ActionBar actions={actions} />;
}
