/**
 * Invite a person by email (issue 34 item 2): the address, a role and a scope, each explained. The roles offered
 * are those the member screens offer (common/policy.ts assignableRoles), greyed out where the caller's roles could
 * not give them (grantableBy); the server decides (canInvite) and its 400/403/409 show under the field it names.
 */
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { z } from 'zod';
import { label, ROLES, SCOPES, type OrganizationRole, type Role, type Scope } from '../../../../common/enums';
import { INVITATION_DAYS } from '../../../../common/invitations';
import { assignableRoles, grantableBy } from '../../../../common/policy';
import { invitationCreateSchema } from '../../../../common/schemas/invitation';
import { usePhone } from '../../../components/usePhone';
import { applyServerError, useSchemaForm } from '../../../lib/forms';
import { notifySuccess } from '../../../lib/notifications';
import { useCurrentOrganization } from '../../../lib/session';
import { useInvite } from '../api/invitations';
import { RoleSelect, ScopeSelect } from './RoleScopeSelects';

interface Values {
  email: string;
  role: Role | null;
  scope: Scope | null;
}

const valuesSchema = z.object({
  email: invitationCreateSchema.in.shape.email,
  role: z.enum(ROLES, { error: 'choose a role' }),
  scope: z.enum(SCOPES, { error: 'choose a scope' }),
});

function InviteForm({ organizationId, organizationName, organizationRole, onDone }: InviteModalProps & { onDone: () => void }) {
  const form = useSchemaForm<Values>(valuesSchema, { email: '', role: 'MEMBER', scope: 'ORGANIZATION' });
  const invite = useInvite();
  const assignable = assignableRoles(organizationRole);
  const grantable = grantableBy(useCurrentOrganization()?.roles.map((a) => a.role) ?? []);
  const roles = assignable.map((r) => ({ value: r, disabled: !grantable.includes(r) }));

  const submit = async (values: Values) => {
    const body = { email: values.email.trim().toLowerCase(), role: values.role!, scope: values.scope! };
    try {
      await invite.mutateAsync({ organizationId, body });
      notifySuccess(`Invited ${body.email} as ${label(body.role)} (${label(body.scope)}).`);
      onDone();
    } catch (error) {
      applyServerError(form, error);
    }
  };

  return (
    <form onSubmit={form.onSubmit(submit)} noValidate aria-label="Invitation">
      <Stack gap="md">
        <Text size="sm">
          {`The person gets a mail with a link to sign in. Signing in with this address within ${INVITATION_DAYS} days makes them a member of ${organizationName} with the role below.`}
        </Text>
        <TextInput label="Email" type="email" inputMode="email" autoComplete="off" required data-autofocus maxLength={320} {...form.getInputProps('email')} />
        <RoleSelect roles={roles} required {...form.getInputProps('role')} value={form.getValues().role} onChange={(role) => form.setFieldValue('role', role)} />
        <ScopeSelect required {...form.getInputProps('scope')} value={form.getValues().scope} onChange={(scope) => form.setFieldValue('scope', scope)} />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onDone} disabled={form.submitting}>
            Cancel
          </Button>
          <Button type="submit" loading={form.submitting}>
            Send invitation
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export interface InviteModalProps {
  organizationId: string;
  organizationName: string;
  organizationRole: OrganizationRole;
}

export function InviteModal({ opened, onClose, ...props }: InviteModalProps & { opened: boolean; onClose: () => void }) {
  const phone = usePhone();
  return (
    <Modal opened={opened} onClose={onClose} title="Invite a member" size="lg" fullScreen={phone} centered closeButtonProps={{ 'aria-label': 'Close' }}>
      {/* A fresh form each time the dialog opens. */}
      {opened ? <InviteForm {...props} onDone={onClose} /> : null}
    </Modal>
  );
}
