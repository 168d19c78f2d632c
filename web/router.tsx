/**
 * The routes of SPEC.md §2. Every layout and page is its own chunk (React.lazy), so the first
 * screen loads only what it shows; on start, the chunks of every level of the address are asked
 * for at once (preloadRoute), not layout first and page only once the layout has rendered, and
 * with them the first requests of the screens people open first (the sign-in provider's settings,
 * the Certificates list), which would otherwise wait for the first render. The sidebar asks for no
 * list: its organization select searches the server when reached for (components/OrganizationSelect).
 *
 * A declarative router (BrowserRouter + useRoutes): the app uses no loaders, actions or fetchers,
 * and the data router carried them all (react-router's chunk: 33 KB gzipped against 16 KB). The one
 * thing it gave, the root error element, is RouteErrorBoundary below.
 */
import { Component, createElement, lazy, useLayoutEffect, type ComponentType, type LazyExoticComponent, type ReactNode } from 'react';
import { BrowserRouter, matchRoutes, Navigate, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router';
import { setNavigator, PATHS } from './lib/navigation';
import { loadProviderMetadata } from './lib/client-settings';
import { hasStoredUser } from './lib/access-token';
import { loadMantineStyles } from './lib/mantine-styles';
import { session } from './lib/session';
import { prefetchCertificates } from './features/certificates/api/prefetch-certificates';
import { ADMIN_SCREENS } from './features/admin/screens';
import { AdminGate } from './features/admin/AdminGate';
import RouteErrorPage from './pages/RouteErrorPage';

type Page = LazyExoticComponent<ComponentType> & { preload: () => Promise<unknown> };

/**
 * React.lazy that can also be loaded ahead of its first render. Routes of the first screens
 * (`first`) use the Mantine styles index.html loads (web/mantine-first-screens.css); every other
 * route waits for all of them too.
 */
function lazyRoute(load: () => Promise<{ default: ComponentType }>, first = false): Page {
  const loadWithStyles = first ? load : () => Promise.all([load(), loadMantineStyles()]).then(([module]) => module);
  // On the first load, a route also waits for its first request (preloadRoute), so it renders
  // once, with its data, in React's sliced rendering: not once empty and then again in one long task
  // when the data arrives.
  const route: Page = Object.assign(
    lazy(() => Promise.all([loadWithStyles(), firstRequests.get(route)]).then(([module]) => module)),
    { preload: loadWithStyles },
  );
  return route;
}

/** The first requests of the routes of the first load, by route (preloadRoute). */
const firstRequests = new Map<Page, Promise<unknown>>();

const BareLayout = lazyRoute(() => import('./layouts/BareLayout'), true);
const DefaultLayout = lazyRoute(() => import('./layouts/DefaultLayout'), true);
const HeaderOnlyLayout = lazyRoute(() => import('./layouts/HeaderOnlyLayout'));
const AdminLayout = lazyRoute(() => import('./layouts/AdminLayout'));

const WelcomePage = lazyRoute(() => import('./pages/welcome/WelcomePage'), true);
const AuthCallbackPage = lazyRoute(() => import('./pages/AuthCallbackPage'), true);
const AuthSilentPage = lazyRoute(() => import('./pages/AuthSilentPage'));
const AuthWelcomePage = lazyRoute(() => import('./pages/AuthWelcomePage'));
const NotFoundPage = lazyRoute(() => import('./pages/NotFoundPage'));
const NetworkErrorPage = lazyRoute(() => import('./pages/NetworkErrorPage'));
const AccessErrorPage = lazyRoute(() => import('./pages/AccessErrorPage'));
const IndexPage = lazyRoute(() => import('./pages/IndexPage'), true);
const ReleaseNotesPage = lazyRoute(() => import('./pages/ReleaseNotesPage'));

const HomePage = lazyRoute(() => import('./features/organizations/HomePage'));
const CertificatesPage = lazyRoute(() => import('./features/certificates/CertificatesPage'), true);
const UploadCertificatePage = lazyRoute(() => import('./features/certificates/UploadCertificatePage'));
const CertificateDetailsPage = lazyRoute(() => import('./features/certificates/CertificateDetailsPage'));
const LicensesPage = lazyRoute(() => import('./features/licenses/LicensesPage'));
const RequestLicensePage = lazyRoute(() => import('./features/licenses/RequestLicensePage'));
const LicenseDetailsPage = lazyRoute(() => import('./features/licenses/LicenseDetailsPage'));
const MembersPage = lazyRoute(() => import('./features/members/MembersPage'));
const MemberDetailsPage = lazyRoute(() => import('./features/members/MemberDetailsPage'));
const ResourcesPage = lazyRoute(() => import('./features/resources/ResourcesPage'));
const JournalPage = lazyRoute(() => import('./features/journal/JournalPage'));
const OrganizationOverviewPage = lazyRoute(() => import('./features/overview/OrganizationOverviewPage'));
const NotificationsPage = lazyRoute(() => import('./features/notifications/NotificationsPage'));
const WebhookPage = lazyRoute(() => import('./features/notifications/WebhookPage'));
const ApiKeysPage = lazyRoute(() => import('./features/api-keys/ApiKeysPage'));
const AccessReviewPage = lazyRoute(() => import('./features/access-review/AccessReviewPage'));
const SupportAccessPage = lazyRoute(() => import('./features/support-access/SupportAccessPage'));

const AdminIndex = lazyRoute(() => import('./features/admin/AdminIndex'));
const ADMIN_PAGES: Record<string, Page> = {
  'pending-tasks': lazyRoute(() => import('./features/admin/PendingTasksPage')),
  overview: lazyRoute(() => import('./features/overview/AdminOverviewPage')),
  organizations: lazyRoute(() => import('./features/admin/organizations/AdminOrganizationsPage')),
  licenses: lazyRoute(() => import('./features/licenses/AdminLicensesPage')),
  certificates: lazyRoute(() => import('./features/certificates/AdminCertificatesPage')),
  members: lazyRoute(() => import('./features/admin/AdminMembersPage')),
  'access-review': lazyRoute(() => import('./features/access-review/AdminAccessReviewPage')),
  resources: lazyRoute(() => import('./features/admin/resources/AdminResourcesPage')),
  token: lazyRoute(() => import('./features/admin/token/NewTokenPage')),
  secret: lazyRoute(() => import('./features/admin/ProvideSecretPage')),
  piston: lazyRoute(() => import('./features/admin/piston/PistonPage')),
  'api-keys': lazyRoute(() => import('./features/api-keys/AdminApiKeysPage')),
  'support-access': lazyRoute(() => import('./features/support-access/MySupportAccessPage')),
};

/** Pages below an admin screen's path (details, new), behind the same gate as the screen. */
const ADMIN_SUBPAGES: Record<string, Array<{ path: string; Component: Page }>> = {
  organizations: [
    { path: 'new', Component: lazyRoute(() => import('./features/admin/organizations/NewOrganizationPage')) },
    { path: ':orgId', Component: lazyRoute(() => import('./features/admin/organizations/AdminOrganizationPage')) },
  ],
  resources: [
    { path: 'new', Component: lazyRoute(() => import('./features/admin/resources/NewResourcePage')) },
    { path: ':resourceId', Component: lazyRoute(() => import('./features/admin/resources/ResourceDetailsPage')) },
  ],
};

/** What preloadRoute asks for ahead of a route's first render. */
interface RouteHandle {
  component: Page;
  /** The route's first requests, for a signed-in person unless `public`. */
  prefetch?: (params: Record<string, string | undefined>, search: URLSearchParams) => Promise<unknown> | void;
  public?: boolean;
}

const page = (component: Page, prefetch?: RouteHandle['prefetch'], isPublic = false) => ({
  element: createElement(component),
  handle: { component, prefetch, public: isPublic } satisfies RouteHandle,
});

/** The sign-in screens ask for the provider's discovery document first thing (lib/auth.ts). */
const signInSettings = () => void loadProviderMetadata();

/**
 * /login with nobody stored and nothing to show (not signed out, no error): Welcome's flow only
 * leaves for the provider. It starts as soon as its code is here, not after React's first render.
 */
function startSignIn(params: Record<string, string | undefined>) {
  signInSettings();
  const willLeave = params.action === 'login' && !session.isLoggedOut() && !session.get().authError && !hasStoredUser();
  if (willLeave) void import('./pages/welcome/login-flow').then((flow) => flow.login());
}

const routes: RouteObject[] = [
  {
    children: [
      { path: '/', element: <Navigate to={PATHS.login} replace /> },
      {
        ...page(BareLayout),
        children: [
          { path: ':action', ...page(WelcomePage, startSignIn, true) },
          { path: 'auth/callback', ...page(AuthCallbackPage, signInSettings, true) },
          { path: 'auth/silent', ...page(AuthSilentPage) },
          { path: 'auth/welcome', ...page(AuthWelcomePage) },
          { path: '404', ...page(NotFoundPage) },
          { path: 'network-error', ...page(NetworkErrorPage) },
          { path: 'access-error', ...page(AccessErrorPage) },
        ],
      },
      {
        ...page(DefaultLayout),
        children: [
          { path: 'index', ...page(IndexPage) },
          { path: 'organizations', ...page(HomePage) },
          {
            path: 'organizations/:orgId',
            children: [
              { index: true, ...page(IndexPage) },
              { path: 'overview', ...page(OrganizationOverviewPage) },
              { path: 'certificates', ...page(CertificatesPage, ({ orgId }, search) => prefetchCertificates(orgId!, search)) },
              // Route name Certificates.New; a DN always holds "=", so it never reads as "upload".
              { path: 'certificates/upload', ...page(UploadCertificatePage) },
              { path: 'certificates/:dn', ...page(CertificateDetailsPage) },
              { path: 'licenses', ...page(LicensesPage) },
              { path: 'licenses/new', ...page(RequestLicensePage) },
              { path: 'licenses/:licenseId', ...page(LicenseDetailsPage) },
              { path: 'members', ...page(MembersPage) },
              { path: 'members/:memberId', ...page(MemberDetailsPage) },
              { path: 'resources', ...page(ResourcesPage) },
              { path: 'auditrecords', ...page(JournalPage) },
              { path: 'notifications', ...page(NotificationsPage) },
              { path: 'access-review', ...page(AccessReviewPage) },
              { path: 'notifications/webhooks/:endpointId', ...page(WebhookPage) },
              { path: 'api-keys', ...page(ApiKeysPage) },
              { path: 'support-access', ...page(SupportAccessPage) },
            ],
          },
        ],
      },
      {
        ...page(HeaderOnlyLayout),
        children: [
          { path: 'release-notes', ...page(ReleaseNotesPage) },
          { path: 'notices', ...page(lazyRoute(() => import('./features/notices/NoticesPage'))) },
        ],
      },
      {
        path: 'admin',
        ...page(AdminLayout),
        children: [
          { index: true, ...page(AdminIndex) },
          ...ADMIN_SCREENS.flatMap((screen) =>
            [{ path: '', Component: ADMIN_PAGES[screen.path] }, ...(ADMIN_SUBPAGES[screen.path] ?? [])].map(({ path, Component }) => ({
              path: path ? `${screen.path}/${path}` : screen.path,
              element: (
                <AdminGate screen={screen.screen}>
                  <Component />
                </AdminGate>
              ),
              handle: { component: Component } satisfies RouteHandle,
            })),
          ),
        ],
      },
      { path: '*', element: <Navigate to={PATHS.notFound} replace /> },
    ],
  },
];

/**
 * Asks for the chunks of every route the address matches (layout and page) at once, and for their
 * first requests. Requests of signed-in screens only with a signed-in member: otherwise the
 * screen sends the person to sign in, and the request would only be refused.
 */
function preloadRoute(location: Location): void {
  const search = new URLSearchParams(location.search);
  const signedIn = !!session.get().profile;
  for (const match of matchRoutes(routes, location.pathname) ?? []) {
    const handle = match.route.handle as RouteHandle | undefined;
    if (!handle) continue;
    void handle.component.preload().catch(() => undefined); // a failure shows when it renders
    const requests = handle.prefetch && (handle.public || signedIn) ? handle.prefetch(match.params, search) : undefined;
    if (requests) firstRequests.set(handle.component, requests.catch(() => undefined)); // a failure shows when it renders
  }
}

/** lib/navigation's navigateTo (the API client, the auth module) goes through the router. */
function NavigatorBridge() {
  const navigate = useNavigate();
  useLayoutEffect(() => setNavigator((to, options) => void navigate(to, options)), [navigate]);
  return null;
}

interface BoundaryProps {
  /** The location: the next navigation leaves the error screen, as with the data router. */
  resetKey: string;
  children: ReactNode;
}

/**
 * A screen that throws while rendering, or whose chunk cannot be loaded (an old tab after a new
 * release), shows RouteErrorPage instead of the whole app.
 */
class RouteErrorBoundary extends Component<BoundaryProps, { failed: boolean; error: unknown }> {
  state = { failed: false, error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }

  componentDidUpdate(previous: BoundaryProps) {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.setState({ failed: false, error: undefined });
  }

  render() {
    return this.state.failed ? <RouteErrorPage error={this.state.error} /> : this.props.children;
  }
}

function AppRoutes() {
  const location = useLocation();
  const screen = useRoutes(routes);
  return <RouteErrorBoundary resetKey={location.key}>{screen}</RouteErrorBoundary>;
}

export function AppRouter() {
  return (
    <BrowserRouter>
      <NavigatorBridge />
      <AppRoutes />
    </BrowserRouter>
  );
}

preloadRoute(window.location);
