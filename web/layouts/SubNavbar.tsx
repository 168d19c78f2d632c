/**
 * The sub-navbar under the header: where the page sits (Self-Service › organization › section, the section a link
 * on a details screen below it, which BackLink leads back to as well) and the signed-in member's roles in the
 * current organization.
 */
import { Link, useLocation, useParams } from 'react-router';
import { Anchor, Badge, Breadcrumbs, Group, Text } from '@mantine/core';
import { label } from '../../common/enums';
import { organizationPath, PATHS } from '../lib/navigation';
import { useCurrentOrganization } from '../lib/session';
import { sectionAt } from './organization-sections';

export function SubNavbar() {
  const { orgId } = useParams();
  const { pathname } = useLocation();
  const current = useCurrentOrganization();
  const organization = current && current.organization_id === orgId ? current : null;
  const section = sectionAt(pathname);

  const crumbs = [
    <Anchor key="home" component={Link} to={PATHS.home} size="sm">
      Self-Service
    </Anchor>,
  ];
  if (orgId) {
    crumbs.push(
      section ? (
        <Anchor key="org" component={Link} to={organizationPath(orgId)} size="sm" className="break-anywhere">
          {organization?.organization_name ?? 'Organization'}
        </Anchor>
      ) : (
        <Text key="org" size="sm" className="break-anywhere">
          {organization?.organization_name ?? 'Organization'}
        </Text>
      ),
    );
  }
  if (orgId && section) {
    // On a details screen below the section (a certificate, a member) the section is a step back, so a link.
    const below = pathname.replace(/\/+$/, '') !== organizationPath(orgId, section.path);
    crumbs.push(
      below ? (
        <Anchor key="section" component={Link} to={organizationPath(orgId, section.path)} size="sm">
          {section.label}
        </Anchor>
      ) : (
        <Text key="section" size="sm" aria-current="page">
          {section.label}
        </Text>
      ),
    );
  }

  return (
    <Group justify="space-between" gap="xs" mb="lg" wrap="wrap">
      <nav aria-label="Breadcrumb">
        <Breadcrumbs separator="›" separatorMargin={6}>
          {crumbs}
        </Breadcrumbs>
      </nav>
      {organization && organization.roles.length > 0 ? (
        <Group gap={6} wrap="wrap">
          <Text size="xs" c="dimmed">
            Your roles:
          </Text>
          {organization.roles.map((role) => (
            <Badge key={`${role.organization_id}|${role.role}|${role.scope}`} variant="light" size="sm" title={`Scope ${label(role.scope)}`}>
              {label(role.role)}
            </Badge>
          ))}
        </Group>
      ) : null}
    </Group>
  );
}
