import { APP_NAME, AUTH_SCREEN_TITLES, DASHBOARD_CHILD_PATHS, documentTitle, screenDocumentTitle, type DashboardChildPath } from '@signalboard/core';
import { useEffect } from 'react';
import { createBrowserRouter, Navigate, Outlet, useMatches, type RouteObject } from 'react-router';
import { setPasswordChangeRequiredHandler, setTwoFactorSetupRequiredHandler, setUnauthorizedHandler } from './lib/client';
import { RequireAuth } from './auth/require-auth';
import { NotAvailableScreen } from './features/not-available/not-available-screen';
import { RouteError } from './components/route-error';

/** Screens that exist; the rest show an honest "not available yet" notice until they are built. */
const BUILT_SCREENS: Partial<Record<DashboardChildPath, RouteObject['lazy']>> = {
  main: () => import('./features/dashboard/dashboard-screen'),
  support: () => import('./features/support/support-screen'),
  symbollookup: () => import('./features/watchlist/watchlist-screen'),
  dropscanner: () => import('./features/drop-scanner/drop-scanner-screen'),
  calendar: () => import('./features/earnings-calendar/earnings-calendar-screen'),
  options: () => import('./features/option-signals/option-signals-screen'),
  generalnews: () => import('./features/news/general-news-screen'),
  trumpnews: () => import('./features/news/trump-news-screen'),
  stocknews: () => import('./features/news/stock-news-screen'),
  allstockscanner: () => import('./features/long-term/long-term-screen'),
  stockshort: () => import('./features/swing/swing-screen'),
  options2: () => import('./features/option-trades/option-trades-screen'),
  drop: () => import('./features/drop-items/drop-items-screen'),
  cryptoscanner: () => import('./features/crypto/crypto-screen'),
  alert: () => import('./features/alerts/alert-settings-screen'),
  scans: () => import('./features/custom-scans/custom-scans-screen'),
  account: () => import('./features/account/account-screen'),
  admin: () => import('./features/admin/admin-screen'),
};

/** What a route gives its page: the document title. */
export interface RouteHandle {
  title: string;
}

/**
 * Sets the document title from the deepest matched route that names one (each screen's, built from
 * core's SCREEN_TITLES), so every page has its own title in the tab, history and screen readers.
 */
function DocumentTitle() {
  const matches = useMatches();
  const title = matches.map((match) => (match.handle as RouteHandle | undefined)?.title).findLast((value) => value !== undefined) ?? APP_NAME;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return <Outlet />;
}

const dashboardChildren: RouteObject[] = [
  { index: true, element: <Navigate to="main" replace /> },
  ...DASHBOARD_CHILD_PATHS.map((path): RouteObject => {
    const lazy = BUILT_SCREENS[path];
    const handle: RouteHandle = { title: screenDocumentTitle(path) };
    return lazy ? { path, handle, lazy } : { path, handle, element: <NotAvailableScreen path={path} /> };
  }),
  { path: '*', element: <Navigate to="/login" replace /> },
];

/** Route table of spec §2. */
export const routes: RouteObject[] = [
  {
    element: <DocumentTitle />,
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      { path: 'login', handle: { title: documentTitle(AUTH_SCREEN_TITLES.login) } satisfies RouteHandle, lazy: () => import('./features/login/login-screen') },
      {
        path: 'set-password',
        handle: { title: documentTitle(AUTH_SCREEN_TITLES.setPassword) } satisfies RouteHandle,
        lazy: () => import('./features/set-password/set-password-screen'),
      },
      // An invitation's (or a sign-up's) link: /invite#<token> (docs/accounts.md).
      { path: 'invite', handle: { title: documentTitle(AUTH_SCREEN_TITLES.invitation) } satisfies RouteHandle, lazy: () => import('./features/invitation/invitation-screen') },
      { path: 'sign-up', handle: { title: documentTitle(AUTH_SCREEN_TITLES.signUp) } satisfies RouteHandle, lazy: () => import('./features/invitation/sign-up-screen') },
      {
        path: 'set-two-factor',
        handle: { title: documentTitle(AUTH_SCREEN_TITLES.setTwoFactor) } satisfies RouteHandle,
        lazy: () => import('./features/account/set-two-factor-screen'),
      },
      {
        path: 'dashboard',
        lazy: async () => {
          const { DashboardShell } = await import('./features/shell/dashboard-shell');
          return {
            element: (
              <RequireAuth>
                <DashboardShell />
              </RequireAuth>
            ),
          };
        },
        children: dashboardChildren,
      },
      { path: '*', element: <Navigate to="/login" replace /> },
    ],
  },
];

export function createRouter() {
  const router = createBrowserRouter(routes);
  setUnauthorizedHandler(() => void router.navigate('/login', { replace: true }));
  setPasswordChangeRequiredHandler(() => void router.navigate('/set-password', { replace: true }));
  setTwoFactorSetupRequiredHandler(() => void router.navigate('/set-two-factor', { replace: true }));
  return router;
}
