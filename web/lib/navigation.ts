/**
 * Navigation from outside React (the API client, the auth module). The router registers
 * itself here once it exists, which keeps lib/ free of an import cycle with router.tsx.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigator: Navigate = (to, options) => {
  if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
};

export function setNavigator(navigate: Navigate): void {
  navigator = navigate;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  navigator(to, options);
}

/** Route paths of the session and error screens (SPEC.md §2), and the names the API may send. */
export const PATHS = {
  login: '/login',
  logout: '/logout',
  authCallback: '/auth/callback',
  authSilent: '/auth/silent',
  authWelcome: '/auth/welcome',
  notFound: '/404',
  networkError: '/network-error',
  accessError: '/access-error',
  home: '/organizations',
  releaseNotes: '/release-notes',
  admin: '/admin',
} as const;

/** Pending Tasks (SPEC.md §2 admin routes): where people with approvals waiting land after sign-in. */
export const PENDING_TASKS_PATH = `${PATHS.admin}/pending-tasks`;

/** Route names an error body may give in `redirect` (SPEC.md §8). */
const NAMED: Record<string, string> = {
  AuthWelcome: PATHS.authWelcome,
  AccessError: PATHS.accessError,
  NetworkError: PATHS.networkError,
  NotFound: PATHS.notFound,
  Welcome: PATHS.login,
};

export function pathOfRouteName(name: string | undefined | null): string | null {
  return name ? (NAMED[name] ?? null) : null;
}

/** Screens that are not part of a signed-in session: never a return URL after sign-in. */
export function isSessionScreen(pathname: string): boolean {
  return (
    pathname === '/' ||
    pathname === PATHS.login ||
    pathname === PATHS.logout ||
    pathname.startsWith('/auth/') ||
    pathname === PATHS.notFound ||
    pathname === PATHS.networkError ||
    pathname === PATHS.accessError
  );
}

/** The sections of an organization, in sidebar order (SPEC.md §2). */
export const ORGANIZATION_SECTIONS = [
  // What needs attention (issue 12); sign-in still lands on Certificates (organizationPath's default).
  { path: 'overview', label: 'Overview' },
  { path: 'certificates', label: 'Certificates' },
  { path: 'licenses', label: 'Licenses' },
  { path: 'members', label: 'Members' },
  { path: 'resources', label: 'Resources' },
  { path: 'auditrecords', label: 'Journal' },
] as const;

export const organizationPath = (orgId: string, section = 'certificates') =>
  `/organizations/${encodeURIComponent(orgId)}/${section}`;

// The details screens, here because other features link to them too (admin lists, a member's
// certificates) and features do not import each other. An id or DN is always one encoded segment.
export const certificateDetailsPath = (orgId: string, dn: string) =>
  `${organizationPath(orgId, 'certificates')}/${encodeURIComponent(dn)}`;

export const licenseDetailsPath = (orgId: string, licenseId: string) =>
  `${organizationPath(orgId, 'licenses')}/${encodeURIComponent(licenseId)}`;

export const memberDetailsPath = (orgId: string, memberId: string, tab?: 'contact' | 'certificates' | 'roles') =>
  `${organizationPath(orgId, 'members')}/${encodeURIComponent(memberId)}${tab ? `#${tab}` : ''}`;
