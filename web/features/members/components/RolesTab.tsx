/**
 * The Roles tab (SPEC.md §2, §5): the member's assignments in the organizations the caller can
 * read, each standing or "until 12-DEC-2026 18:00" in the viewer's zone (issue 33); Unassign for those allowed,
 * after a confirmation, disabled for roles of another organization (they are managed there); Change end of a
 * time-boxed role for those who may assign it (the same policy); Assign with a role and a scope, both required, and
 * an optional end. Everyone else sees 'No action available'.
 */
import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput, Title, Tooltip } from '@mantine/core';
import { IconClockEdit, IconPlus, IconTrash } from '@tabler/icons-react';
import { formatDateMinute, toLocalInput } from '../../../../common/dates';
import { label, ROLES, type OrganizationRole, type Role, type Scope } from '../../../../common/enums';
import { RoleSelect, ScopeSelect } from './RoleScopeSelects';
import { assignableRoles, grantableBy, memberRefusal } from '../../../../common/policy';
import { useActor, useAllowedHere } from '../../../lib/actor';
import { useCurrentOrganization } from '../../../lib/session';
import type { Member, MemberRole } from '../../../../common/schemas/member';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { Loading } from '../../../components/Loading';
import { DataTable, type DataColumn } from '../../../components/DataTable';
import { notifySuccess } from '../../../lib/notifications';
import { useAssignRole, useUnassignRole } from '../api/assign-role';
import { useMemberRoles } from '../api/get-member-roles';
import { DANGER } from '../../../components/danger';

export interface RolesTabProps {
  member: Member;
  /** The role of the member's (the path's) organization: it decides which roles may be assigned. */
  organizationRole: OrganizationRole;
  canAssign: boolean;
  canUnassign: boolean;
}

function UnassignButton({ member, role }: { member: Member; role: MemberRole }) {
  const [confirming, setConfirming] = useState(false);
  const unassign = useUnassignRole();
  const elsewhere = role.organization_id !== member.organization_id;
  const name = `Unassign ${label(role.role)} in ${role.organization_name}`;

  if (elsewhere) {
    // A disabled button gets no pointer events, so the tooltip needs aria-disabled instead.
    return (
      <Tooltip label={`This role belongs to ${role.organization_name}; unassign it there.`} events={{ hover: true, focus: true, touch: true }}>
        <Button
          size="xs"
          variant="default"
          leftSection={<IconTrash size={14} aria-hidden />}
          data-disabled
          aria-disabled
          aria-label={name}
          onClick={(event) => event.preventDefault()}
        >
          Unassign
        </Button>
      </Tooltip>
    );
  }
  const roleName = label(role.role);
  return (
    <>
      <Button size="xs" {...DANGER} leftSection={<IconTrash size={14} aria-hidden />} aria-label={name} onClick={() => setConfirming(true)}>
        Unassign
      </Button>
      <ConfirmModal
        opened={confirming}
        onClose={() => setConfirming(false)}
        title={`Unassign ${roleName}?`}
        confirmLabel="Unassign"
        pending={unassign.isPending}
        onConfirm={() =>
          // The row goes away with the answer, and this dialog with it: the toast must not depend on it staying mounted.
          unassign
            .mutateAsync({ organizationId: member.organization_id, memberId: member.member_id, role: role.role })
            .then(() => notifySuccess(`Unassigned ${roleName} from ${member.name}.`))
            .catch(() => setConfirming(false)) // lib/api.ts has shown the failure
        }
      >
        {`${member.name} loses the role ${roleName} (${label(role.scope)}) in ${role.organization_name} from their next call on. It can be assigned again.`}
      </ConfirmModal>
    </>
  );
}

const DAY = 86_400_000;
/** The longest a time-boxed role may run (the server refuses more: members/roles.ts). */
const MAX_DAYS = 365;

/** The bounds of an end the server accepts, as `datetime-local` values: from the next minute to 365 days ahead. */
function endBounds() {
  const now = Date.now();
  return { min: toLocalInput(now + 60_000), max: toLocalInput(now + MAX_DAYS * DAY) };
}

/** The end of a role as the viewer chose it (their zone), as the instant the server takes; undefined when empty. */
const instantOf = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** The end of a time-boxed role: extend or shorten it, or make it standing (assign again, common/policy.ts canGrant). */
function ChangeEndButton({ member, role }: { member: Member; role: MemberRole & { until: string } }) {
  const [opened, setOpened] = useState(false);
  const [value, setValue] = useState(toLocalInput(role.until));
  const assign = useAssignRole();
  const roleName = label(role.role);
  const bounds = endBounds();
  const save = (until: string | undefined) =>
    assign.mutate(
      { organizationId: member.organization_id, memberId: member.member_id, role: role.role, scope: role.scope, until },
      {
        onSuccess: () => {
          notifySuccess(until ? `${roleName} of ${member.name} now ends ${formatDateMinute(until)}.` : `${roleName} of ${member.name} is now standing.`);
          setOpened(false);
        },
      },
    );
  return (
    <>
      <Button size="xs" variant="default" leftSection={<IconClockEdit size={14} aria-hidden />} aria-label={`Change the end of ${roleName}`} onClick={() => setOpened(true)}>
        Change end
      </Button>
      <Modal opened={opened} onClose={() => setOpened(false)} title={`Change the end of ${roleName}`} centered closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack gap="md">
          <Text size="sm">{`${member.name} holds ${roleName} (${label(role.scope)}) until ${formatDateMinute(role.until)}. To end it now, unassign it.`}</Text>
          <TextInput type="datetime-local" label="Ends at" description="Your local time; at most 365 days ahead." value={value} min={bounds.min} max={bounds.max} onChange={(e) => setValue(e.currentTarget.value)} data-autofocus />
          <Group justify="flex-end" gap="xs" wrap="wrap">
            <Button variant="default" onClick={() => save(undefined)} disabled={assign.isPending}>
              Make standing
            </Button>
            <Button onClick={() => save(instantOf(value))} disabled={!value} loading={assign.isPending}>
              Save end
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

function RoleActions({ member, role, canAssign, canUnassign }: { member: Member; role: MemberRole; canAssign: boolean; canUnassign: boolean }) {
  const own = role.organization_id === member.organization_id;
  return (
    <Group gap="xs" justify="flex-end" wrap="nowrap">
      {canAssign && own && role.until ? <ChangeEndButton member={member} role={{ ...role, until: role.until }} /> : null}
      {canUnassign ? <UnassignButton member={member} role={role} /> : null}
    </Group>
  );
}

const roleColumns = (member: Member, canAssign: boolean, canUnassign: boolean): DataColumn<MemberRole>[] => [
  { header: 'Organization', breakAnywhere: true, cell: (r) => r.organization_name },
  { header: 'Role', cell: (r) => label(r.role) },
  { header: 'Scope', cell: (r) => label(r.scope) },
  { header: 'Ends', cell: (r) => (r.until ? `until ${formatDateMinute(r.until)}` : 'Standing') },
  ...(canAssign || canUnassign
    ? [{ header: 'Actions', headerHidden: true, align: 'end' as const, cell: (r: MemberRole) => <RoleActions member={member} role={r} canAssign={canAssign} canUnassign={canUnassign} /> }]
    : []),
];

function RoleTable({ member, roles, canAssign, canUnassign }: { member: Member; roles: MemberRole[]; canAssign: boolean; canUnassign: boolean }) {
  if (roles.length === 0) return <Text>No roles assigned.</Text>;
  return (
    <DataTable label="Roles" columns={roleColumns(member, canAssign, canUnassign)} rows={roles} rowKey={(r) => `${r.organization_id}|${r.role}`} minWidth={0} />
  );
}

function AssignForm({ member, organizationRole }: { member: Member; organizationRole: OrganizationRole }) {
  const [role, setRole] = useState<Role | null>(null);
  const [scope, setScope] = useState<Scope | null>(null);
  const [until, setUntil] = useState('');
  const assign = useAssignRole();
  const bounds = endBounds();
  const assignable = assignableRoles(organizationRole);
  // Operator members are the ones offered the operator's roles (common/policy.ts assignableRoles).
  const operator = assignable.includes('DEVOPS');
  // The server decides (common/policy.ts canGrant); this only greys out what it would refuse.
  const grantable = grantableBy(useCurrentOrganization()?.roles.map((a) => a.role) ?? []);

  // SPEC.md §5: Approver and Supervisor are listed but enabled only for operator members; Devops is listed only there.
  const roleOptions = ROLES.filter((r) => r !== 'DEVOPS' || operator).map((r) => ({
    value: r,
    disabled: !assignable.includes(r) || !grantable.includes(r),
  }));

  const submit = () => {
    if (!role || !scope) return;
    assign.mutate(
      { organizationId: member.organization_id, memberId: member.member_id, role, scope, until: instantOf(until) },
      {
        onSuccess: () => {
          notifySuccess(`Assigned ${label(role)} (${label(scope)})${until ? ` until ${formatDateMinute(new Date(until))}` : ''} to ${member.name}.`);
          setRole(null);
          setScope(null);
          setUntil('');
        },
      },
    );
  };

  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        Assign a role
      </Title>
      <Group align="flex-end" gap="xs" wrap="wrap">
        <RoleSelect roles={roleOptions} value={role} onChange={setRole} w={{ base: '100%', xs: 260 }} />
        <ScopeSelect value={scope} onChange={setScope} w={{ base: '100%', xs: 260 }} />
        <TextInput
          type="datetime-local"
          label="Until (optional)"
          value={until}
          min={bounds.min}
          max={bounds.max}
          onChange={(e) => setUntil(e.currentTarget.value)}
          w={{ base: '100%', xs: 220 }}
        />
        <Button leftSection={<IconPlus size={16} aria-hidden />} disabled={!role || !scope} loading={assign.isPending} onClick={submit}>
          Assign
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {`${operator ? '' : 'Approver and Supervisor are for members of the operator organization only. '}Without an end the role stands until unassigned; with one it ends by itself at that minute of your local time (at most 365 days ahead).`}
      </Text>
    </Stack>
  );
}

export function RolesTab({ member, organizationRole, canAssign, canUnassign }: RolesTabProps) {
  const { data, isPending, isError } = useMemberRoles({ organizationId: member.organization_id, memberId: member.member_id });
  // Nobody gives themselves a role (common/policy.ts memberRefusal, canGrant): the server leaves it
  // out of one's own abilities; say why where the roles would otherwise allow it.
  const self = !!memberRefusal(useActor(), 'role.assign', member);
  const rolesWouldAllow = useAllowedHere('role.assign');

  return (
    <Stack gap="lg">
      {isPending ? (
        <Loading />
      ) : isError && !data ? (
        <Text>The roles could not be loaded.</Text>
      ) : (
        <RoleTable member={member} roles={data} canAssign={canAssign} canUnassign={canUnassign} />
      )}
      {canAssign ? <AssignForm member={member} organizationRole={organizationRole} /> : null}
      {self && rolesWouldAllow ? (
        <Text c="dimmed" size="sm">
          Nobody can give themselves a role; ask another administrator or supervisor.
        </Text>
      ) : null}
      {!canAssign && !canUnassign && !(self && rolesWouldAllow) ? (
        <Text c="dimmed" size="sm">
          No action available
        </Text>
      ) : null}
    </Stack>
  );
}
