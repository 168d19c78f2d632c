/**
 * Admin: New Token (SPEC.md §2, §5): an API token for the download gateway. Expiry 1–730 days
 * (default 365), a user principal name, and the one group piston_export. The token is shown once.
 */
import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Group, Select, Slider, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertTriangle, IconKey } from '@tabler/icons-react';
import { SCREENS } from '../../../../common/policy';
import { formatDate, DAY } from '../../../../common/dates';
import { TOKEN_GROUPS, tokenRequestSchema, type TokenRequest } from '../../../../common/schemas/token';
import { AnchorLink } from '../../../components/Link';
import { Page } from '../../../components/Page';
import { useActor } from '../../../lib/actor';
import { ApiError } from '../../../lib/api';
import { adminPath } from '../screens';
import { adminStateQueryOptions, useAdminState } from './api/get-admin-state';
import { useCreateToken } from './api/create-token';
import { CreatedToken } from './CreatedToken';

const MIN_DAYS = 1;
const MAX_DAYS = 730;
const DEFAULT_DAYS = 365;
const MARKS = [
  { value: 1, label: '1' },
  { value: 180, label: '180' },
  { value: 365, label: '365' },
  { value: 730, label: '730' },
];

type Errors = Partial<Record<keyof TokenRequest, string>>;

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
  const [days, setDays] = useState(DEFAULT_DAYS);
  const [upn, setUpn] = useState('');
  const [group, setGroup] = useState<string>(TOKEN_GROUPS[0]);
  const [errors, setErrors] = useState<Errors>({});
  const [created, setCreated] = useState<{ token: string; request: TokenRequest; at: number } | null>(null);
  const create = useCreateToken();
  const queryClient = useQueryClient();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = tokenRequestSchema.safeParse({ expires_in: days, upn, groups: [group] });
    if (!parsed.success) {
      const next: Errors = {};
      for (const issue of parsed.error.issues) next[String(issue.path[0]) as keyof TokenRequest] ??= issue.message;
      setErrors(next);
      return;
    }
    setCreated(null);
    create.mutate(parsed.data, {
      onSuccess: (token) => setCreated({ token: token.trim(), request: parsed.data, at: Date.now() }),
      onError: (error) => {
        // 503: the secret went missing (a restart); the banner says so again.
        if (error instanceof ApiError && error.status === 503) void queryClient.invalidateQueries({ queryKey: adminStateQueryOptions().queryKey });
        const field = error instanceof ApiError ? error.field : undefined;
        if (field === 'upn' || field === 'expires_in' || field === 'groups') setErrors({ [field]: error.message });
      },
    });
  };

  return (
    <Page title="New Token" documentTitle="New Token · Admin" subtitle="An API token for the download gateway (piston).">
      <SecretBanner />
      <form onSubmit={submit} noValidate aria-label="New token">
        <Stack gap="lg" maw={560}>
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
              value={days}
              onChange={setDays}
              marks={MARKS}
              thumbLabel="Expires in (days)"
              thumbValueText={(value) => daysText(value)}
              label={(value) => daysText(value)}
              mb="lg"
              mx="xs"
            />
            {errors.expires_in ? (
              <Text size="sm" c="var(--mantine-color-error)">
                {errors.expires_in}
              </Text>
            ) : null}
          </Stack>
          <TextInput
            label="User principal name (upn)"
            description="Who or what uses the token, e.g. piston@gateway.example"
            required
            value={upn}
            onChange={(event) => {
              setUpn(event.currentTarget.value);
              setErrors((current) => ({ ...current, upn: undefined }));
            }}
            error={errors.upn}
            maxLength={200}
            autoComplete="off"
            spellCheck={false}
          />
          <Select
            label="Group"
            data={[...TOKEN_GROUPS]}
            value={group}
            onChange={(value) => value && setGroup(value)}
            allowDeselect={false}
            error={errors.groups}
          />
          <Group>
            <Button type="submit" leftSection={<IconKey size={16} aria-hidden />} loading={create.isPending}>
              Create token
            </Button>
          </Group>
        </Stack>
      </form>
      {created ? <CreatedToken {...created} /> : null}
    </Page>
  );
}
