/** The support access requests as a table: state (break glass marked), who, role, reason, times, and the caller's actions. */
import { useState } from 'react';
import { Badge, Button, Group } from '@mantine/core';
import { formatDateTime } from '../../../common/dates';
import { label } from '../../../common/enums';
import { supportRequestLapsesAt } from '../../../common/policy';
import type { SupportRequest } from '../../../common/schemas/support-access';
import { ConfirmModal } from '../../components/ConfirmModal';
import { DataTable, type DataColumn } from '../../components/DataTable';
import { notifySuccess } from '../../lib/notifications';
import { useSupportAction } from './api';
import { DANGER } from '../../components/danger';

const STATE_COLOR: Record<SupportRequest['state'], string> = { REQUESTED: 'yellow', APPROVED: 'green', DENIED: 'gray', ENDED: 'gray', EXPIRED: 'gray' };
const STATE_LABEL: Record<SupportRequest['state'], string> = { REQUESTED: 'Waiting', APPROVED: 'Active', DENIED: 'Denied', ENDED: 'Ended', EXPIRED: 'Expired' };

function Actions({ request }: { request: SupportRequest }) {
  const act = useSupportAction();
  const [ending, setEnding] = useState(false);
  const run = (action: 'approve' | 'deny' | 'end', done: string) =>
    act.mutateAsync({ organizationId: request.organization_id, requestId: request.request_id, action }).then(() => notifySuccess(done));
  const who = request.requester.name;
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      {request.abilities.includes('approve') ? (
        <Button size="xs" aria-label={`Approve request #${request.request_id}`} loading={act.isPending} onClick={() => void run('approve', `Approved support request #${request.request_id}.`).catch(() => undefined)}>
          Approve
        </Button>
      ) : null}
      {request.abilities.includes('deny') ? (
        <Button size="xs" variant="default" aria-label={`Deny request #${request.request_id}`} disabled={act.isPending} onClick={() => void run('deny', `Denied support request #${request.request_id}.`).catch(() => undefined)}>
          Deny
        </Button>
      ) : null}
      {request.abilities.includes('end') ? (
        <>
          <Button size="xs" {...DANGER} aria-label={`End request #${request.request_id}`} onClick={() => setEnding(true)}>
            {request.state === 'REQUESTED' ? 'Withdraw' : 'End'}
          </Button>
          <ConfirmModal
            opened={ending} onClose={() => setEnding(false)} pending={act.isPending}
            title={request.state === 'REQUESTED' ? `Withdraw request #${request.request_id}?` : `End support access #${request.request_id}?`}
            confirmLabel={request.state === 'REQUESTED' ? 'Withdraw' : 'End now'}
            onConfirm={() => void run('end', `Ended support request #${request.request_id}.`).catch(() => undefined).finally(() => setEnding(false))}
          >
            {request.state === 'REQUESTED' ? 'It can no longer be approved.' : `${who} is refused from the next click on.`}
          </ConfirmModal>
        </>
      ) : null}
    </Group>
  );
}

/** The access's end; for a waiting request, the instant it lapses unanswered (the date kept on one line). */
function until(r: SupportRequest) {
  if (r.date_until) return <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(r.date_until)}</span>;
  if (r.state !== 'REQUESTED') return '–';
  return <>Waits until <span style={{ whiteSpace: 'nowrap' }}>{formatDateTime(supportRequestLapsesAt(r.date_requested))}</span></>;
}

export function SupportRequestsTable({ requests, organization = false }: { requests: SupportRequest[]; organization?: boolean }) {
  const columns: DataColumn<SupportRequest>[] = [
    { header: 'Request', rowHeader: true, nowrap: true, cell: (r) => `#${r.request_id}` },
    ...(organization ? [{ header: 'Organization', breakAnywhere: true, cell: (r: SupportRequest) => r.organization_name }] : []),
    {
      header: 'State', unlabelled: true, nowrap: true, width: '9rem',
      cell: (r) => (
        <Group gap={4} wrap="nowrap" miw="max-content">
          <Badge color={STATE_COLOR[r.state]} variant="light">{STATE_LABEL[r.state]}</Badge>
          {r.break_glass ? <Badge color="red">Break glass</Badge> : null}
        </Group>
      ),
    },
    { header: 'Support person', breakAnywhere: true, cell: (r) => `${r.requester.name} (${r.requester.email})` },
    { header: 'Role', nowrap: true, cell: (r) => label(r.role) },
    { header: 'Reason', breakAnywhere: true, cell: (r) => r.reason },
    { header: 'Hours', nowrap: true, cell: (r) => String(r.hours) },
    { header: 'Requested', nowrap: true, cell: (r) => formatDateTime(r.date_requested) },
    { header: 'Until', cell: until },
    { header: 'Decided by', breakAnywhere: true, cell: (r) => r.decided_by ?? '–' },
    { header: 'Actions', headerHidden: true, align: 'end', cell: (r) => (r.abilities.length ? <Actions request={r} /> : null) },
  ];
  return <DataTable label="Support access requests" columns={columns} rows={requests} rowKey={(r) => r.request_id} minWidth={1100} alignTop />;
}
