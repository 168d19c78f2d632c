/**
 * An organization's "Support access" page (issue 33 item 2): its administrators see every request of the vendor's
 * support staff, approve, deny or end them, and set "approve support access automatically" with its longest access;
 * the vendor's support staff see their own requests here and ask for access. Others are told why they see nothing.
 */
import { Alert, Button, Card, Group, NumberInput, Stack, Switch, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { SUPPORT_MAX_HOURS } from '../../../common/policy';
import type { SupportSettings } from '../../../common/schemas/support-access';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { notifySuccess } from '../../lib/notifications';
import { useRequestSupport, useSaveSupportSettings, useSupportList } from './api';
import { RequestSupportForm } from './RequestSupportForm';
import { SupportRequestsTable } from './SupportRequestsTable';

function SettingsForm({ organizationId, settings }: { organizationId: string; settings: SupportSettings }) {
  const [value, setValue] = useState(settings);
  useEffect(() => setValue(settings), [settings]);
  const save = useSaveSupportSettings();
  const valid = Number.isInteger(value.max_hours) && value.max_hours >= 1 && value.max_hours <= SUPPORT_MAX_HOURS;
  return (
    <Card withBorder padding="md">
      <form
        aria-label="Support access setting"
        onSubmit={(e) => {
          e.preventDefault();
          if (valid) void save.mutateAsync({ organizationId, body: value }).then(() => notifySuccess('Saved the support access setting.')).catch(() => undefined);
        }}
      >
        <Stack gap="sm">
          <Switch
            label="Approve support access automatically"
            description="Off: every request waits for an administrator. On: requests up to the hours below are approved at once (you are still told)."
            checked={value.auto_approve}
            onChange={(e) => setValue({ ...value, auto_approve: e.currentTarget.checked })}
          />
          <Group align="flex-end" gap="sm">
            <NumberInput
              label="Longest access approved automatically (hours)" min={1} max={SUPPORT_MAX_HOURS} allowDecimal={false} w={320} maw="100%"
              value={value.max_hours} onChange={(v) => setValue({ ...value, max_hours: Number(v) })}
              error={valid ? undefined : `1–${SUPPORT_MAX_HOURS} hours`}
            />
            <Button type="submit" loading={save.isPending} disabled={!valid}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}

export default function SupportAccessPage() {
  const { organization } = useRouteOrganization();
  const organizationId = organization?.organization_id ?? '';
  const list = useSupportList(organizationId);
  const request = useRequestSupport();
  const subtitle = organization ? `The vendor's support staff in ${organization.organization_name}: only with your consent, only for a while.` : '…';
  if (!organization || list.isPending) return <Page title="Support access" subtitle={subtitle}><Loading /></Page>;
  if (list.isError) {
    return (
      <Page title="Support access" subtitle={subtitle}>
        <Alert color="gray" title="You may not see support access here">
          The organization's administrators decide on support access, and the vendor's supervisors and DevOps ask for it.
        </Alert>
      </Page>
    );
  }
  const { items, settings, abilities, requestable_roles: roles } = list.data;
  return (
    <Page title="Support access" subtitle={subtitle}>
      <Stack gap="lg">
        {abilities.includes('decide') ? <SettingsForm organizationId={organizationId} settings={settings} /> : null}
        {abilities.includes('request') ? (
          <Card withBorder padding="md">
            <Title order={2} size="h4" mb="sm">Request access</Title>
            <RequestSupportForm
              fixedOrganization={organizationId} roles={roles} breakGlass={abilities.includes('breakGlass')}
              onSubmit={(id, body) => request.mutateAsync({ organizationId: id, body }).then((r) => notifySuccess(r.state === 'APPROVED' ? `Support access #${r.request_id} is active.` : `Asked for support access #${r.request_id}.`))}
            />
          </Card>
        ) : null}
        <Stack gap="xs">
          <Title order={2} size="h4">Requests</Title>
          {items.length ? <SupportRequestsTable requests={items} /> : <Text c="dimmed" size="sm">No support access requests yet.</Text>}
        </Stack>
      </Stack>
    </Page>
  );
}
