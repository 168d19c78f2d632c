/**
 * The routes of SPEC.md §2. Every layout and page is its own chunk (React.lazy), so the first
 * screen loads only what it shows.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { setNavigator, PATHS } from './lib/navigation';
import { ADMIN_SCREENS } from './features/admin/screens';
import { AdminGate } from './features/admin/AdminGate';
import RouteErrorPage from './pages/RouteErrorPage';

type Page = LazyExoticComponent<ComponentType>;

const BareLayout = lazy(() => import('./layouts/BareLayout'));
const DefaultLayout = lazy(() => import('./layouts/DefaultLayout'));
const HeaderOnlyLayout = lazy(() => import('./layouts/HeaderOnlyLayout'));
const AdminLayout = lazy(() => import('./layouts/AdminLayout'));

const WelcomePage = lazy(() => import('./pages/welcome/WelcomePage'));
const AuthCallbackPage = lazy(() => import('./pages/AuthCallbackPage'));
const AuthSilentPage = lazy(() => import('./pages/AuthSilentPage'));
const AuthWelcomePage = lazy(() => import('./pages/AuthWelcomePage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));
const NetworkErrorPage = lazy(() => import('./pages/NetworkErrorPage'));
const AccessErrorPage = lazy(() => import('./pages/AccessErrorPage'));
const IndexPage = lazy(() => import('./pages/IndexPage'));
const ReleaseNotesPage = lazy(() => import('./pages/ReleaseNotesPage'));

const HomePage = lazy(() => import('./features/organizations/HomePage'));
const CertificatesPage = lazy(() => import('./features/certificates/CertificatesPage'));
const UploadCertificatePage = lazy(() => import('./features/certificates/UploadCertificatePage'));
const CertificateDetailsPage = lazy(() => import('./features/certificates/CertificateDetailsPage'));
const LicensesPage = lazy(() => import('./features/licenses/LicensesPage'));
const RequestLicensePage = lazy(() => import('./features/licenses/RequestLicensePage'));
const LicenseDetailsPage = lazy(() => import('./features/licenses/LicenseDetailsPage'));
const MembersPage = lazy(() => import('./features/members/MembersPage'));
const MemberDetailsPage = lazy(() => import('./features/members/MemberDetailsPage'));
const ResourcesPage = lazy(() => import('./features/resources/ResourcesPage'));
const JournalPage = lazy(() => import('./features/journal/JournalPage'));

const AdminIndex = lazy(() => import('./features/admin/AdminIndex'));
const ADMIN_PAGES: Record<string, Page> = {
  'pending-tasks': lazy(() => import('./features/admin/PendingTasksPage')),
  organizations: lazy(() => import('./features/admin/organizations/AdminOrganizationsPage')),
  licenses: lazy(() => import('./features/licenses/AdminLicensesPage')),
  certificates: lazy(() => import('./features/certificates/AdminCertificatesPage')),
  members: lazy(() => import('./features/admin/AdminMembersPage')),
  resources: lazy(() => import('./features/admin/resources/AdminResourcesPage')),
  token: lazy(() => import('./features/admin/token/NewTokenPage')),
  secret: lazy(() => import('./features/admin/ProvideSecretPage')),
  piston: lazy(() => import('./features/admin/piston/PistonPage')),
};

/** Pages below an admin screen's path (details, new), behind the same gate as the screen. */
const ADMIN_SUBPAGES: Record<string, Array<{ path: string; Component: Page }>> = {
  organizations: [
    { path: 'new', Component: lazy(() => import('./features/admin/organizations/NewOrganizationPage')) },
    { path: ':orgId', Component: lazy(() => import('./features/admin/organizations/AdminOrganizationPage')) },
  ],
  resources: [
    { path: 'new', Component: lazy(() => import('./features/admin/resources/NewResourcePage')) },
    { path: ':resourceId', Component: lazy(() => import('./features/admin/resources/ResourceDetailsPage')) },
  ],
};

const page = (Component: Page) => <Component />;

export const routes: RouteObject[] = [
  {
    errorElement: <RouteErrorPage />,
    children: [
      { path: '/', element: <Navigate to={PATHS.login} replace /> },
      {
        element: <BareLayout />,
        children: [
          { path: ':action', element: page(WelcomePage) },
          { path: 'auth/callback', element: page(AuthCallbackPage) },
          { path: 'auth/silent', element: page(AuthSilentPage) },
          { path: 'auth/welcome', element: page(AuthWelcomePage) },
          { path: '404', element: page(NotFoundPage) },
          { path: 'network-error', element: page(NetworkErrorPage) },
          { path: 'access-error', element: page(AccessErrorPage) },
        ],
      },
      {
        element: <DefaultLayout />,
        children: [
          { path: 'index', element: page(IndexPage) },
          { path: 'organizations', element: page(HomePage) },
          {
            path: 'organizations/:orgId',
            children: [
              { index: true, element: page(IndexPage) },
              { path: 'certificates', element: page(CertificatesPage) },
              // Route name Certificates.New; a DN always holds "=", so it never reads as "upload".
              { path: 'certificates/upload', element: page(UploadCertificatePage) },
              { path: 'certificates/:dn', element: page(CertificateDetailsPage) },
              { path: 'licenses', element: page(LicensesPage) },
              { path: 'licenses/new', element: page(RequestLicensePage) },
              { path: 'licenses/:licenseId', element: page(LicenseDetailsPage) },
              { path: 'members', element: page(MembersPage) },
              { path: 'members/:memberId', element: page(MemberDetailsPage) },
              { path: 'resources', element: page(ResourcesPage) },
              { path: 'auditrecords', element: page(JournalPage) },
            ],
          },
        ],
      },
      {
        element: <HeaderOnlyLayout />,
        children: [{ path: 'release-notes', element: page(ReleaseNotesPage) }],
      },
      {
        path: 'admin',
        element: <AdminLayout />,
        children: [
          { index: true, element: page(AdminIndex) },
          ...ADMIN_SCREENS.flatMap((screen) =>
            [{ path: '', Component: ADMIN_PAGES[screen.path] }, ...(ADMIN_SUBPAGES[screen.path] ?? [])].map(({ path, Component }) => ({
              path: path ? `${screen.path}/${path}` : screen.path,
              element: (
                <AdminGate screen={screen.screen}>
                  <Component />
                </AdminGate>
              ),
            })),
          ),
        ],
      },
      { path: '*', element: <Navigate to={PATHS.notFound} replace /> },
    ],
  },
];

export const router = createBrowserRouter(routes);

setNavigator((to, options) => void router.navigate(to, options));
