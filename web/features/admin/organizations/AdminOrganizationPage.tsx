/**
 * Admin organization details (SPEC.md §2 "organizations/{orgId}"): tabs Organization (the form,
 * ban and unban) and Resources (which resources the organization may use). The active tab is
 * kept in the URL hash like the member details.
 */
import { useState } from 'react';
import { useParams } from 'react-router';
import { Button, Stack, Tabs } from '@mantine/core';
import { IconBan, IconBuilding, IconLockOpen, IconNotebook, IconPackage, IconUsers } from '@tabler/icons-react';
import { label } from '../../../../common/enums';
import type { Organization } from '../../../../common/schemas/organization';
import { useOrganization } from '../../../api/get-organization';
import { BanModal } from '../../../components/BanModal';
import { BanNotice, WithBannedBadge } from '../../../components/BanNotice';
import { DANGER } from '../../../components/danger';
import { ButtonLink } from '../../../components/Link';
import { Loading } from '../../../components/Loading';
import { NotFound } from '../../../components/NotFound';
import { Page } from '../../../components/Page';
import { useHashTab } from '../../../components/useHashTab';
import { organizationRefusal } from '../../../../common/policy';
import { allowedIn, useActor } from '../../../lib/actor';
import { organizationPath as sectionPath } from '../../../lib/navigation';
import { notifySuccess } from '../../../lib/notifications';
import { OrganizationResourcesTab } from '../resources/OrganizationResourcesTab';
import { useBanOrganization, useUnbanOrganization } from './api/ban-organization';
import { OrganizationDetailsForm } from './OrganizationDetailsForm';
import { adminOrganizationsPath } from './paths';

const TABS = ['organization', 'resources'] as const;

function BanActions({ organization }: { organization: Organization }) {
  const [opened, setOpened] = useState(false);
  const actor = useActor();
  const ban = useBanOrganization();
  const unban = useUnbanOrganization();
  const name = organization.organization_name;
  const banned = !!organization.date_organization_banned;
  // The operator and one's own organization are never banned (common/policy.ts organizationRefusal).
  const bannable = !organizationRefusal(actor, 'organization.ban', organization);

  if (banned) {
    if (!allowedIn(organization, 'organization.unban')) return null;
    return (
      <Button
        variant="light"
        leftSection={<IconLockOpen size={16} aria-hidden />}
        loading={unban.isPending}
        onClick={() => unban.mutate({ organizationId: organization.organization_id }, { onSuccess: () => notifySuccess(`Unbanned ${name}.`) })}
      >
        Unban
      </Button>
    );
  }
  if (!bannable || !allowedIn(organization, 'organization.ban')) return null;
  return (
    <>
      <Button {...DANGER} leftSection={<IconBan size={16} aria-hidden />} onClick={() => setOpened(true)}>
        Ban
      </Button>
      <BanModal
        opened={opened}
        onClose={() => setOpened(false)}
        title={`Ban ${name}`}
        description={`The members of ${name} are refused from their next call on and cannot sign in until it is unbanned. Organizations below it are not banned.`}
        pending={ban.isPending}
        onBan={async (note) => {
          // The promise goes back to BanModal, which shows a 400 about the note under Note.
          await ban.mutateAsync({ organizationId: organization.organization_id, note });
          setOpened(false);
          notifySuccess(`Banned ${name}.`);
        }}
      />
    </>
  );
}

export default function AdminOrganizationPage() {
  const { orgId = '' } = useParams();
  const [tab, setTab] = useHashTab(TABS);
  const { data: organization, isPending, isError } = useOrganization(orgId);

  if (isPending) return <Loading />;
  if (isError || !organization) return <NotFound what="organization" back={{ to: adminOrganizationsPath, label: 'Back to the organizations' }} />;

  return (
    <Stack gap="xs">
      <Page
        back={{ to: adminOrganizationsPath, list: 'organizations' }}
        title={organization.organization_name}
        documentTitle={`${organization.organization_name} · Admin`}
        subtitle={
          <WithBannedBadge banned={!!organization.date_organization_banned}>
            <span>
              {label(organization.organization_role)}
              {organization.parent_organization_name ? ` below ${organization.parent_organization_name}` : ''}
            </span>
          </WithBannedBadge>
        }
        actions={
          <>
            <ButtonLink to={sectionPath(orgId, 'members')} variant="default" leftSection={<IconUsers size={16} aria-hidden />}>
              Members
            </ButtonLink>
            <ButtonLink to={sectionPath(orgId, 'auditrecords')} variant="default" leftSection={<IconNotebook size={16} aria-hidden />}>
              Journal
            </ButtonLink>
            <BanActions organization={organization} />
          </>
        }
      >
        <BanNotice who={organization.organization_name} date={organization.date_organization_banned} note={organization.ban_note} />
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="organization" leftSection={<IconBuilding size={16} aria-hidden />}>
              Organization
            </Tabs.Tab>
            <Tabs.Tab value="resources" leftSection={<IconPackage size={16} aria-hidden />}>
              Resources
            </Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="organization" pt="lg">
            <OrganizationDetailsForm
              key={organization.organization_id}
              organization={organization}
              canSave={allowedIn(organization, 'organization.save')}
            />
          </Tabs.Panel>
          <Tabs.Panel value="resources" pt="lg">
            <OrganizationResourcesTab organizationId={organization.organization_id} />
          </Tabs.Panel>
        </Tabs>
      </Page>
    </Stack>
  );
}
