/**
 * Bulk actions of a certificate list (components/bulk, docs/decisions.md "Bulk actions"): the rows'
 * selection, and Approve, Revoke and Acknowledge expiry where a selected row allows it (the caller's
 * `abilities`, the state of common/status.ts, as the details page decides its buttons).
 */
import { useMemo } from 'react';
import type { CertificateSummary } from '../../../../common/schemas/certificate';
import type { CertificateBulkAction, CertificateBulkResult } from '../../../../common/schemas/bulk';
import type { Action } from '../../../../common/policy';
import { certificateStatus } from '../../../../common/status';
import type { BulkAction, BulkActionsProps } from '../../../components/bulk/BulkActions';
import { matchOf } from '../../../components/bulk/run-bulk';
import { selectionScope, useRowSelection } from '../../../components/bulk/useRowSelection';
import { previewCertificateBulk } from '../api/preview-certificate-bulk';
import { runCertificateBulk, useCertificatesChanged } from '../api/run-certificate-bulk';

type Result = CertificateBulkResult['results'][number];

const ACTIONS: Array<{ key: CertificateBulkAction; label: string; done: string; ability: Action; state: 'can_approve' | 'can_revoke' | 'can_acknowledge_expiry'; destructive?: boolean }> = [
  { key: 'approve', label: 'Approve', done: 'approved', ability: 'certificate.approve', state: 'can_approve' },
  { key: 'acknowledge-expiry', label: 'Acknowledge expiry', done: 'acknowledged', ability: 'certificate.acknowledgeExpiry', state: 'can_acknowledge_expiry' },
  { key: 'revoke', label: 'Revoke', done: 'revoked', ability: 'certificate.revoke', state: 'can_revoke', destructive: true },
];

const keyOf = (c: CertificateSummary) => c.distinguished_name;
const labelOf = (c: CertificateSummary) => `Select ${c.distinguished_name}`;

/** The selection, and the bar's props; `selectable` is false for a caller who may take none of the actions here. */
export function useCertificateBulk(organizationId: string | null, request: object, total: number, rows: CertificateSummary[], now: Date, stale: boolean) {
  const selection = useRowSelection(keyOf, labelOf, selectionScope(request), stale);
  const changed = useCertificatesChanged();
  const match = useMemo(() => matchOf(request, organizationId), [request, organizationId]);
  const actions = useMemo<BulkAction<CertificateSummary>[]>(
    () => ACTIONS.map((a) => ({ key: a.key, label: a.label, done: a.done, destructive: a.destructive, allowed: (c) => c.abilities.includes(a.ability), applies: (c) => c.abilities.includes(a.ability) && certificateStatus(c, now)[a.state] })),
    [now],
  );
  const selectable = rows.some((c) => ACTIONS.some((a) => c.abilities.includes(a.ability)));
  const bar: BulkActionsProps<CertificateSummary, Result> = {
    noun: { one: 'certificate', many: 'certificates' },
    selection,
    total,
    rows,
    actions,
    api: {
      preview: (action) => previewCertificateBulk(action as CertificateBulkAction, match),
      send: (action, body) => runCertificateBulk(action as CertificateBulkAction, body),
      match,
      item: (c) => ({ organization_id: c.organization_id, distinguished_name: c.distinguished_name }),
      name: (r) => r.distinguished_name,
      onFinished: changed,
    },
  };
  return { selectable, table: selection.table, bar };
}
