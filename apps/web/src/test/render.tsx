import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';
import { vi } from 'vitest';
import { cssVariablesResolver, theme } from '../theme';

/** Renders routes in memory inside the app's providers, starting at `path`. */
export function renderRoutes(routes: RouteObject[], path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const result = render(
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Notifications />
      <RouterProvider router={router} />
    </MantineProvider>,
  );
  return { ...result, router };
}

export function renderScreen(element: ReactElement, path = '/') {
  return renderRoutes([{ path, element }, { path: '*', element: <div>elsewhere</div> }], path);
}

/**
 * jsdom lays nothing out: give every element a box, or Mantine's dropdowns (Combobox, Select) read
 * their target as scrolled out of view and stay closed. Call from a beforeEach; vitest restores it.
 */
export function giveElementsABox(): void {
  vi.spyOn(Element.prototype, 'getBoundingClientRect').mockReturnValue(new DOMRect(16, 16, 320, 36));
  vi.spyOn(Element.prototype, 'clientWidth', 'get').mockReturnValue(1024);
  vi.spyOn(Element.prototype, 'clientHeight', 'get').mockReturnValue(768);
}
