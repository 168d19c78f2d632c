/**
 * The organization sidebar: a select of the caller's organizations, the selected one's logo and
 * its sections. Choosing an organization stores it as the current one (its `roles` then count
 * for the policy checks) and opens the same section for it (SPEC.md §2).
 */
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Box, Image, NavLink, Stack, Text } from '@mantine/core';
import {
  IconApi,
  IconBell,
  IconShieldCheck,
  IconCertificate,
  IconFileDescription,
  IconHeadset,
  IconKey,
  IconLayoutDashboard,
  IconNotebook,
  IconPackage,
  IconUsers,
} from '@tabler/icons-react';
import type { Organization } from '../../common/schemas/organization';
import { OrganizationSelect } from '../components/OrganizationSelect';
import { organizationPath } from '../lib/navigation';
import { session, useCurrentOrganization } from '../lib/session';
import { sectionOf, sectionsFor, switchOrganizationPath } from './organization-sections';

const ICONS: Record<string, typeof IconCertificate> = {
  overview: IconLayoutDashboard,
  certificates: IconCertificate,
  licenses: IconKey,
  members: IconUsers,
  resources: IconPackage,
  auditrecords: IconNotebook,
  notifications: IconBell,
  'api-keys': IconApi,
  'access-review': IconShieldCheck,
  'support-access': IconHeadset,
};

export function OrganizationSidebar() {
  const { orgId } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = useCurrentOrganization();

  const selectedId = orgId ?? current?.organization_id ?? null;
  const selected = current && current.organization_id === selectedId ? current : null;

  const choose = (organization: Organization) => {
    session.setOrganization(organization);
    navigate(switchOrganizationPath(pathname, organization));
  };

  const activeSection = sectionOf(pathname);

  return (
    <Stack gap="md" h="100%">
      <OrganizationSelect
        label="Organization"
        placeholder="Please select one"
        value={selected}
        onChange={choose}
        comboboxProps={{ withinPortal: true }}
      />

      {selected?.logo_url ? (
        <Box>
          <Image
            src={selected.logo_url}
            alt={`${selected.organization_name} logo`}
            mah={72}
            w="auto"
            maw="100%"
            fit="contain"
          />
        </Box>
      ) : null}

      {/* A plain scrolling box: Mantine's ScrollArea brings floating-ui along (about 15 KB gzipped). */}
      <Box style={{ flex: 1, minHeight: 0, overflowY: 'auto' }}>
        {selectedId ? (
          <Stack gap={2}>
            {/* Until the organization is loaded, its gated sections wait for its abilities. */}
            {sectionsFor(selected).map((section) => {
              const Icon = ICONS[section.path] ?? IconFileDescription;
              const active = orgId === selectedId && activeSection === section.path;
              return (
                <NavLink
                  key={section.path}
                  component={Link}
                  to={organizationPath(selectedId, section.path)}
                  label={section.label}
                  leftSection={<Icon size={18} aria-hidden />}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                />
              );
            })}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Select an organization to see its certificates, licenses, members, resources and journal.
          </Text>
        )}
      </Box>
    </Stack>
  );
}
