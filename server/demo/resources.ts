/** Demo resources of each type and access; the RESTRICTED ones partly granted to Contoso. */
import { randomUUID } from 'node:crypto';
import type { Tx } from '../db/database';
import type { DemoContext } from './context';
import type { ResourceAccess, ResourceType } from '../../common/enums';

const DEMO: Array<{ name: string; type: ResourceType; access: ResourceAccess; path: string; location: string; description: string; grants?: string[] }> = [
  { name: 'Release notes', type: 'STATIC_CONTENT', access: 'PUBLIC', path: '/docs/**', location: '/srv/portal/docs', description: 'Product documentation and release notes' },
  { name: 'Linux packages (stable)', type: 'LINUX_PACKAGE', access: 'DEFAULT', path: '/packages/stable/**', location: '/srv/packages/stable', description: 'Debian and RPM packages of the current release' },
  { name: 'Container images', type: 'IMAGE_STORE', access: 'DEFAULT', path: '/images/**', location: '/srv/images', description: 'OCI images of the gateway software' },
  { name: 'Linux packages (beta)', type: 'LINUX_PACKAGE', access: 'RESTRICTED', path: '/packages/beta/**', location: '/srv/packages/beta', description: 'Early builds for selected customers', grants: ['contoso'] },
  { name: 'Lab images', type: 'IMAGE_STORE', access: 'RESTRICTED', path: '/images/lab/*', location: '/srv/images/lab', description: 'Images for the partner lab', grants: ['northwind'] },
];

export async function seedResources(tx: Tx, context: DemoContext): Promise<void> {
  let ordinal = 0;
  for (const r of DEMO) {
    const resourceId = randomUUID();
    await tx.insertInto('resources').values({
      resource_id: resourceId, ordinal: (ordinal += 10), resource_name: r.name, resource_type: r.type,
      resource_access: r.access, path_pattern: r.path, location: r.location, description: r.description,
    }).execute();
    for (const key of r.grants ?? []) {
      await tx.insertInto('resource_grants').values({ resource_id: resourceId, organization_id: context.organizations[key] }).execute();
    }
  }
}
