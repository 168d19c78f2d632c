/** The admin area's screens, their paths under /admin and their SCREENS gates (SPEC.md §2). */
import { SCREENS, type Actor, type Screen } from '../../../common/policy';

export interface AdminScreen {
  screen: Exclude<Screen, 'admin'>;
  path: string;
  label: string;
}

export const ADMIN_SCREENS: readonly AdminScreen[] = [
  { screen: 'pendingTasks', path: 'pending-tasks', label: 'Pending Tasks' },
  // After Pending Tasks: /admin opens the first screen allowed, and that stays the pending tasks.
  { screen: 'overview', path: 'overview', label: 'Overview' },
  { screen: 'organizations', path: 'organizations', label: 'Organizations' },
  { screen: 'licenses', path: 'licenses', label: 'Licenses' },
  { screen: 'certificates', path: 'certificates', label: 'Certificates' },
  { screen: 'users', path: 'members', label: 'User' },
  { screen: 'accessReview', path: 'access-review', label: 'Access Review' },
  { screen: 'resources', path: 'resources', label: 'Resources' },
  { screen: 'token', path: 'token', label: 'New Token' },
  { screen: 'secret', path: 'secret', label: 'Provide Secret' },
  { screen: 'piston', path: 'piston', label: 'Piston Resources' },
  { screen: 'apiKeys', path: 'api-keys', label: 'API Keys' },
  { screen: 'supportAccess', path: 'support-access', label: 'Support Access' },
];

export const adminPath = (path: string) => `/admin/${path}`;

export function allowedAdminScreens(actor: Actor | null): AdminScreen[] {
  return ADMIN_SCREENS.filter((s) => SCREENS[s.screen](actor));
}
