/**
 * The organization sidebar: a select of the caller's organizations, the selected one's logo and
 * its sections. Choosing an organization stores it as the current one (its `roles` then count
 * for the policy checks) and opens the same section for it (SPEC.md §2).
 */
import { useMemo } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { Box, Image, NavLink, Stack, Text } from '@mantine/core';
import {
  IconCertificate,
  IconFileDescription,
  IconKey,
  IconNotebook,
  IconPackage,
  IconUsers,
} from '@tabler/icons-react';
import { ALL_ORGANIZATIONS, useOrganizations } from '../api/get-organizations';
import { DeferredSelect } from '../components/DeferredSelect';
import { ORGANIZATION_SECTIONS, organizationPath } from '../lib/navigation';
import { session, useCurrentOrganization } from '../lib/session';
import { sectionOf, switchOrganizationPath } from './organization-sections';

const ICONS: Record<string, typeof IconCertificate> = {
  certificates: IconCertificate,
  licenses: IconKey,
  members: IconUsers,
  resources: IconPackage,
  auditrecords: IconNotebook,
};

export function OrganizationSidebar() {
  const { orgId } = useParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const current = useCurrentOrganization();
  const organizations = useOrganizations(ALL_ORGANIZATIONS);

  const selectedId = orgId ?? current?.organization_id ?? null;
  const selected = current && current.organization_id === selectedId ? current : null;
  const items = organizations.data?.items;

  const options = useMemo(() => {
    const list = (items ?? []).map((o) => ({ value: o.organization_id, label: o.organization_name }));
    // Until the list arrives (or when it is filtered), the current organization is still shown.
    if (selected && !list.some((o) => o.value === selected.organization_id)) {
      list.unshift({ value: selected.organization_id, label: selected.organization_name });
    }
    return list;
  }, [items, selected]);

  const choose = (id: string | null) => {
    if (!id || id === selectedId) return;
    const organization = items?.find((o) => o.organization_id === id);
    if (organization) session.setOrganization(organization);
    navigate(switchOrganizationPath(pathname, id));
  };

  const activeSection = sectionOf(pathname);

  return (
    <Stack gap="md" h="100%">
      <DeferredSelect
        label="Organization"
        placeholder="Please select one"
        data={options}
        value={selectedId}
        onChange={choose}
        searchable
        allowDeselect={false}
        nothingFoundMessage={organizations.isPending ? 'Loading…' : 'No organizations found.'}
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
            {ORGANIZATION_SECTIONS.map((section) => {
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
