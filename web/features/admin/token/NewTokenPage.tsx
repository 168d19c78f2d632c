/**
 * Admin: New Token (SPEC.md §2, §5): an API token for the download gateway. A name (required here, optional
 * in the API for old clients: issue 34), expiry 1–730 days (default 365), a user principal name, and the one
 * group piston_export. The token is shown once. Checked with the API's own field schemas (lib/forms.ts); a
 * server 400 shows under its field. Below it the tokens made, to revoke one (TokenList).
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Group, Select, Slider, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import { z } from 'zod';
import { SCREENS, canOnOperator } from '../../../../common/policy';
import { formatDate, DAY } from '../../../../common/dates';
import { TOKEN_GROUPS, tokenRequestSchema, type TokenRequest } from '../../../../common/schemas/token';
import { AnchorLink } from '../../../components/Link';
import { Page } from '../../../components/Page';
import { useActor } from '../../../lib/actor';
import { ApiError } from '../../../lib/api';
import { applyServerError, useSchemaForm } from '../../../lib/forms';
import { notifySuccess } from '../../../lib/notifications';
import { adminPath } from '../screens';
import { adminStateQueryOptions, useAdminState } from './api/get-admin-state';
import { useCreateToken } from './api/create-token';
import { CreatedToken } from './CreatedToken';
import { TokenList } from './TokenList';

const MIN_DAYS = 1;
const MAX_DAYS = 730;
const DEFAULT_DAYS = 365;
const MARKS = [
  { value: 1, label: '1' },
  { value: 180, label: '180' },
  { value: 365, label: '365' },
  { value: 730, label: '730' },
];

/** The form has one group (a select) where the body has a list of them. */
interface Values {
  name: string;
  expires_in: number;
  upn: string;
  group: TokenRequest['groups'][number];
}
const fields = tokenRequestSchema.in.shape;
const valuesSchema = z.object({ name: fields.name.unwrap(), expires_in: fields.expires_in, upn: fields.upn, group: fields.groups.element });
/** A server 400 about `groups` (or `groups.0`) is about the select. */
const SERVER_FIELDS = { groups: 'group' };

const daysText = (days: number) => (days === 1 ? '1 day' : `${days} days`);

function SecretBanner() {
  const actor = useActor();
  const { data } = useAdminState();
  if (!data || data.secret_provided) return null;
  return (
    <Alert color="yellow" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} title="Secret not yet provided!">
      Tokens are signed with a key derived from the master secret, so none can be created until it is provided.{' '}
      {SCREENS.secret(actor) ? (
        <>
          Provide it on{' '}
          <AnchorLink to={adminPath('secret')} c="var(--mantine-color-text)" fw={600} underline="always" inherit>
            Provide Secret
          </AnchorLink>
          .
        </>
      ) : (
        'Ask a DEVOPS member of the operator to provide it on Provide Secret.'
      )}
    </Alert>
  );
}

export default function NewTokenPage() {
  const actor = useActor();
  const form = useSchemaForm<Values>(valuesSchema, { name: '', expires_in: DEFAULT_DAYS, upn: '', group: TOKEN_GROUPS[0] });
  const [created, setCreated] = useState<{ token: string; request: TokenRequest; at: number } | null>(null);
  const create = useCreateToken();
  const queryClient = useQueryClient();
  const days = form.values.expires_in;

  const submit = ({ group, ...values }: Values) => {
    const request = tokenRequestSchema.parse({ ...values, groups: [group] });
    setCreated(null);
    create.mutate(request, {
      onSuccess: (token) => {
        setCreated({ token: token.trim(), request, at: Date.now() });
        notifySuccess(`Token for ${request.upn} created.`);
      },
      onError: (error) => {
        // 503: the secret went missing (a restart); the banner says so again.
        if (error instanceof ApiError && error.status === 503) void queryClient.invalidateQueries({ queryKey: adminStateQueryOptions().queryKey });
        applyServerError(form, error, SERVER_FIELDS);
      },
    });
  };

  return (
    <Page title="New Token" documentTitle="New Token · Admin" subtitle="An API token for the download gateway (piston).">
      <SecretBanner />
      <form onSubmit={form.onSubmit(submit)} noValidate aria-label="New token">
        <Stack gap="lg" maw={560}>
          <TextInput
            label="Name"
            description="What the token is for, as the list shows it, e.g. Frankfurt gateway"
            required
            {...form.getInputProps('name')}
            maxLength={100}
            autoComplete="off"
          />
          <Stack gap={6}>
            <Group justify="space-between" gap="xs">
              <Text fw={500} size="sm">
                Expires in (days)
              </Text>
              <Text size="sm" fw={600} aria-hidden>
                {daysText(days)} · until {formatDate(Date.now() + days * DAY)}
              </Text>
            </Group>
            <Slider
              min={MIN_DAYS}
              max={MAX_DAYS}
              {...form.getInputProps('expires_in', { withError: false })}
              marks={MARKS}
              thumbLabel="Expires in (days)"
              thumbValueText={(value) => daysText(value)}
              label={(value) => daysText(value)}
              mb="lg"
              mx="xs"
            />
            {form.errors.expires_in ? (
              <Text size="sm" c="var(--mantine-color-error)">
                {form.errors.expires_in}
              </Text>
            ) : null}
          </Stack>
          <TextInput
            label="User principal name (upn)"
            description="Who or what uses the token, e.g. piston@gateway.example"
            required
            {...form.getInputProps('upn')}
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
          />
          <Select
            label="Group"
            data={[...TOKEN_GROUPS]}
            {...form.getInputProps('group')}
            allowDeselect={false}
          />
          <Group>
            <Button type="submit" leftSection={<IconKey size={16} aria-hidden />} loading={create.isPending}>
              Create token
            </Button>
          </Group>
        </Stack>
      </form>
      {created ? <CreatedToken {...created} /> : null}
      {canOnOperator(actor, 'token.list') ? <TokenList /> : null}
    </Page>
  );
}
