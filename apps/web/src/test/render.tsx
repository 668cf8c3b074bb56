import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { theme } from '../theme';

/** Renders routes in memory inside the app's providers, starting at `path`. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <MantineProvider theme={theme}>
      <Notifications />
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { ...result, router };
}

export function renderScreen(element: ReactElement, path = '/') {
  return renderRoutes([{ path, element }, { path: '*', element: <div>elsewhere</div> }], path);
}
