import { DASHBOARD_CHILD_PATHS, type DashboardChildPath } from '@signalboard/core';
import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { setUnauthorizedHandler } from './api/client';
import { RequireAuth } from './auth/require-auth';
import { NotAvailableScreen } from './features/not-available/not-available-screen';
import { RouteError } from './components/route-error';

/** Screens that exist; the rest show an honest "not available yet" notice until they are built. */
const BUILT_SCREENS: Partial<Record<DashboardChildPath, RouteObject['lazy']>> = {
  main: () => import('./features/market-dashboard/market-dashboard-screen'),
  support: () => import('./features/support/support-screen'),
  symbollookup: () => import('./features/watchlist/watchlist-screen'),
  dropscanner: () => import('./features/drop-scanner/drop-scanner-screen'),
  calendar: () => import('./features/earnings-calendar/earnings-calendar-screen'),
  options: () => import('./features/option-scanner/option-scanner-screen'),
  generalnews: () => import('./features/general-news/general-news-screen'),
  trumpnews: () => import('./features/trump-news/trump-news-screen'),
  stocknews: () => import('./features/stock-news/stock-news-screen'),
};

const dashboardChildren: RouteObject[] = [
  { index: true, element: <Navigate to="main" replace /> },
  ...DASHBOARD_CHILD_PATHS.map((path): RouteObject => {
    const lazy = BUILT_SCREENS[path];
    return lazy ? { path, lazy } : { path, element: <NotAvailableScreen path={path} /> };
  }),
  { path: '*', element: <Navigate to="/login" replace /> },
];

/** Route table of spec §2. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      { index: true, element: <Navigate to="/login" replace /> },
      { path: 'login', lazy: () => import('./features/login/login-screen') },
      { path: 'set-password', lazy: () => import('./features/set-password/set-password-screen') },
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
  return router;
}
