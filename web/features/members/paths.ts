/** Routes of the members feature; the details path is in lib/navigation.ts. */
import { organizationPath } from '../../lib/navigation';

export const membersListPath = (organizationId: string) => organizationPath(organizationId, 'members');
