/** Paths of the license screens (SPEC.md §2 "/licenses"); the details path is in lib/navigation.ts. */
import { organizationPath } from '../../lib/navigation';

export const licensesPath = (organizationId: string) => organizationPath(organizationId, 'licenses');

export const requestLicensePath = (organizationId: string) => `${licensesPath(organizationId)}/new`;
