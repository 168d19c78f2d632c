/**
 * A member's details (SPEC.md §2 "/members/{memberId}"): the name, ban state and the tabs
 * Contact, Certificates and Roles, the active one kept in the URL hash.
 */
import { useParams } from 'react-router';
import { Stack, Tabs, Text } from '@mantine/core';
import { IconAddressBook, IconCertificate, IconShieldLock } from '@tabler/icons-react';
import { BanNotice, WithBannedBadge } from '../../components/BanNotice';
import { Loading } from '../../components/Loading';
import { NotFound } from '../../components/NotFound';
import { Page } from '../../components/Page';
import { useHashTab } from '../../components/useHashTab';
import { useRouteOrganization } from '../../components/useRouteOrganization';
import { memberRefusal, type Action } from '../../../common/policy';
import { useActor, useAllowedHere } from '../../lib/actor';
import { useMember } from './api/get-member';
import { CertificatesTab } from './components/CertificatesTab';
import { ContactTab } from './components/ContactTab';
import { MemberActions } from './components/MemberActions';
import { RolesTab } from './components/RolesTab';
import { SignInStatusCheck } from './components/SignInStatusCheck';
import { membersListPath } from './paths';

const TABS = ['contact', 'certificates', 'roles'] as const;

export default function MemberDetailsPage() {
  const { orgId, organization } = useRouteOrganization();
  const { memberId = '' } = useParams();
  const [tab, setTab] = useHashTab(TABS);
  const { data: member, isPending, isError } = useMember({ organizationId: orgId, memberId });

  // Nobody bans or removes themselves (common/policy.ts memberRefusal): the server leaves those out of
  // one's own abilities; the page says why where the roles would otherwise allow them.
  const actor = useActor();
  const self = !!(memberRefusal(actor, 'member.ban', { member_id: memberId }) ?? memberRefusal(actor, 'member.remove', { member_id: memberId }));
  // Both hooks on every render: `a() || b()` would skip the second one whenever the first is true.
  const mayBan = useAllowedHere('member.ban');
  const mayRemove = useAllowedHere('member.remove');
  const rolesWouldAllow = mayBan || mayRemove;

  if (isPending) return <Loading />;
  if (isError || !member) return <NotFound what="member" back={{ to: membersListPath(orgId), label: 'Back to the members' }} />;

  // What the caller may do to this member, as the server decided (common/policy.ts).
  const may = (action: Action) => member.abilities.includes(action);
  const [canSave, canBan, canUnban, canRemove] = [may('member.save'), may('member.ban'), may('member.unban'), may('member.remove')];
  const banned = !!member.date_member_banned;
  return (
    <Page
      back={{ to: membersListPath(orgId), list: 'members' }}
      title={member.name}
      subtitle={
        <WithBannedBadge banned={banned}>
          <span>{member.member_email}</span>
        </WithBannedBadge>
      }
      actions={
        <MemberActions member={member} canBan={canBan} canUnban={canUnban} canRemove={canRemove} />
      }
    >
      <BanNotice who={member.name} date={member.date_member_banned} note={member.ban_note} />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="contact" leftSection={<IconAddressBook size={16} aria-hidden />}>
            Contact
          </Tabs.Tab>
          <Tabs.Tab value="certificates" leftSection={<IconCertificate size={16} aria-hidden />}>
            Certificates
          </Tabs.Tab>
          <Tabs.Tab value="roles" leftSection={<IconShieldLock size={16} aria-hidden />}>
            Roles
          </Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="contact" pt="lg">
          <Stack gap="xl">
            <ContactTab member={member} canSave={canSave} />
            {canSave ? <SignInStatusCheck member={member} /> : null}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="certificates" pt="lg">
          <CertificatesTab member={{ organizationId: orgId, memberId }} />
        </Tabs.Panel>
        <Tabs.Panel value="roles" pt="lg">
          <RolesTab
            member={member}
            organizationRole={organization?.organization_role ?? 'CUSTOMER'}
            canAssign={may('role.assign')}
            canUnassign={may('role.unassign')}
          />
        </Tabs.Panel>
      </Tabs>
      {self && rolesWouldAllow ? (
        <Text size="xs" c="dimmed">
          This is you: ban and remove are not offered on your own record.
        </Text>
      ) : null}
    </Page>
  );
}
