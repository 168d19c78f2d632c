/**
 * Admin: Provide Secret (SPEC.md §2, DECISIONS.md "Master secret"): a banner saying whether the
 * portal holds the master secret, and the form that provides it (operator DEVOPS). The keys that
 * sign license keys and API tokens are derived from it; it is held in memory only, so after a
 * restart it must be provided again. A refusal (too short, not the secret provided before) shows
 * under the field (lib/forms.ts).
 */
import { Alert, Button, Card, Group, PasswordInput, Stack, Text } from '@mantine/core';
import { IconAlertTriangle, IconKey, IconShieldCheck } from '@tabler/icons-react';
import { z } from 'zod';
import { MASTER_SECRET_MAX_LENGTH, MASTER_SECRET_MIN_LENGTH, masterSecretSchema } from '../../../common/schemas/admin';
import { Loading } from '../../components/Loading';
import { Page } from '../../components/Page';
import { applyServerError, useSchemaForm } from '../../lib/forms';
import { notifySuccess } from '../../lib/notifications';
import { useProvideMasterSecret } from './secret/api/provide-master-secret';
import { useAdminState } from './token/api/get-admin-state';

/** The form's one field, checked by the rule the server applies (common/schemas/admin.ts). */
const valuesSchema = z.object({ secret: masterSecretSchema });

function Banner({ provided }: { provided: boolean }) {
  return provided ? (
    <Alert color="green" variant="light" icon={<IconShieldCheck size={20} aria-hidden />} title="Secret already provided!">
      License keys and API tokens can be signed. After a restart of the portal the secret must be provided again.
    </Alert>
  ) : (
    <Alert color="orange" variant="light" icon={<IconAlertTriangle size={20} aria-hidden />} title="Secret not yet provided!">
      Until it is provided, license keys and API tokens cannot be issued.
    </Alert>
  );
}

export default function ProvideSecretPage() {
  const state = useAdminState();
  const provide = useProvideMasterSecret();
  const form = useSchemaForm(valuesSchema, { secret: '' });
  const provided = state.data?.secret_provided ?? false;
  const length = [...form.values.secret.trim()].length;

  const submit = ({ secret }: { secret: string }) => {
    if (provided) return;
    provide.mutate(secret, {
      onSuccess: () => {
        form.reset();
        notifySuccess('successful set');
      },
      onError: (error) => applyServerError(form, error),
    });
  };

  return (
    <Page title="Provide Secret" documentTitle="Provide Secret · Admin">
      {state.isPending ? <Loading /> : state.data ? <Banner provided={provided} /> : <Text>The state of the secret could not be loaded.</Text>}
      <Card withBorder padding="lg" maw={640}>
        <form onSubmit={form.onSubmit(submit)}>
          <Stack gap="md">
            <Text size="sm" c="dimmed">
              The master secret signs license keys and API tokens. The portal keeps only a verifier of it and the secret itself in
              memory; it is never shown, logged or returned.
            </Text>
            <PasswordInput
              label="Master secret"
              description={length > 0 && length < MASTER_SECRET_MIN_LENGTH ? `At least ${MASTER_SECRET_MIN_LENGTH} characters (${length} so far).` : `At least ${MASTER_SECRET_MIN_LENGTH} characters.`}
              autoComplete="off"
              maxLength={MASTER_SECRET_MAX_LENGTH}
              {...form.getInputProps('secret')}
              disabled={provided || provide.isPending}
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                leftSection={<IconKey size={16} aria-hidden />}
                loading={provide.isPending}
                disabled={provided || length < MASTER_SECRET_MIN_LENGTH}
              >
                Provide secret
              </Button>
            </Group>
          </Stack>
        </form>
      </Card>
    </Page>
  );
}
