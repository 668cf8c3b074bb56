// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/AppShell.layer.css';
import '@mantine/core/styles/Badge.layer.css';
import '@mantine/core/styles/Burger.layer.css';
import '@mantine/core/styles/Menu.layer.css';
import '@mantine/core/styles/NavLink.layer.css';
import '@mantine/core/styles/Tooltip.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import '@mantine/core/styles/ThemeIcon.layer.css';
import { AppShell, Box, Burger, Group, NavLink, Skeleton, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconLogout } from '@tabler/icons-react';
import { MENU_ACCOUNT_ENTRIES, MENU_ADMIN_ENTRIES, MENU_ENTRIES, MENU_SECONDARY_ENTRIES, MENU_SECONDARY_TITLE, SIDE_MENU_WIDTH_PX, type MenuEntry } from '@signalboard/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { Suspense, useDeferredValue, useState, type ReactNode } from 'react';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { useCurrentUser } from '../../lib/session-queries';
import { queryClient } from '../../lib/query-client';
import { tokenStorage } from '../../auth/token-storage';
import { logout } from '../../lib/api/auth';
import { Brand } from '../../components/brand';
import { LiveProvider } from '../../components/live/live-provider';
import { MAIN_CONTENT_ID, SkipLink } from '../../components/skip-link';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { MarketBadges } from './market-badges';
import { MENU_ICONS } from './menu-icons';

const HEADER_HEIGHT_PX = 56;
const NAVBAR_ID = 'main-menu';
/** Below Mantine's `sm` breakpoint, where the drawer overlays the content (AppShell's mobile layout). */
export const PHONE_QUERY = '(max-width: 47.99em)';

/**
 * Server state lives in TanStack Query from the dashboard on; the sign-in screens do without it, which
 * keeps the login route's JavaScript small.
 */
export function DashboardShell() {
  return (
    <QueryClientProvider client={queryClient}>
      {/* One live-update stream for the signed-in app: quotes, idea updates and alerts without polling. */}
      <LiveProvider>
        <Shell />
      </LiveProvider>
    </QueryClientProvider>
  );
}

/**
 * The dashboard shell (spec §2): a 250px side drawer, open by default, and the top bar. On a phone
 * the drawer starts closed (a deliberate deviation from the spec: there it covers the content).
 */
function Shell() {
  const [opened, setOpened] = useState(() => !window.matchMedia(PHONE_QUERY).matches);
  const toggle = () => setOpened((value) => !value);
  const navigate = useNavigate();
  const location = useLocation();
  const narrow = useMediaQuery(PHONE_QUERY, undefined, { getInitialValueInEffect: false });
  // On a phone the drawer starts closed: its two dozen links are drawn in a deferred render just
  // after the first paint rather than in it (issue 24, Lighthouse mobile on /dashboard/main). Open
  // at the start (a wider screen), they are drawn at once.
  const [startedOpen] = useState(opened);
  const menuDrawn = useDeferredValue(true, startedOpen);

  function signOut() {
    // The session ends on the server too (its token is refused everywhere from then on). Leaving does
    // not wait for the answer: the call has read the token before it is cleared below.
    void logout().catch(() => undefined);
    tokenStorage.clear();
    queryClient.clear();
    navigate('/login', { replace: true });
  }

  /** A menu entry: goes to its route and toggles the drawer (spec §2). */
  function menuLink(entry: MenuEntry) {
    const Icon = MENU_ICONS[entry.link];
    return (
      <NavLink
        key={entry.link}
        href={entry.link}
        label={entry.name}
        leftSection={<Icon size={18} stroke={1.7} />}
        active={location.pathname === entry.link}
        variant="light"
        onClick={(event) => {
          event.preventDefault();
          navigate(entry.link);
          toggle();
        }}
        styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
      />
    );
  }

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT_PX }}
      navbar={{ width: SIDE_MENU_WIDTH_PX, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: !opened } }}
      padding="lg"
    >
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Burger opened={opened} onClick={toggle} size="sm" aria-label="menu" aria-expanded={opened} aria-controls={NAVBAR_ID} />
            <Brand compact />
            <MarketBadges narrow={narrow} />
          </Group>
          <Group gap="sm" wrap="nowrap" miw={0}>
            <UserName narrow={narrow} />
            <ColorSchemeToggle />
          </Group>
        </Group>
      </AppShell.Header>

      {/* On narrow screens the drawer overlays the content; a tap beside it closes it. */}
      {narrow && opened && <Box className="sb-drawer-backdrop" onClick={toggle} aria-hidden />}
      {/* The drawer is a nav landmark; closed, it is inert, so its links are no tab stops off screen. */}
      <AppShell.Navbar p="xs" id={NAVBAR_ID} aria-label="Main menu" className="sb-navbar" inert={!opened}>
        {/* Native scrolling: Mantine's ScrollArea measured itself after every render (a forced restyle of
            the page, a long task on a phone even with the drawer closed; issue 24). */}
        <AppShell.Section grow className="sb-navbar-menu">
          {menuDrawn && (
            <div>
              {MENU_ENTRIES.map(menuLink)}
              <Text size="xs" fw={600} c="dimmed" tt="uppercase" px="sm" pt="md" pb={4}>
                {MENU_SECONDARY_TITLE}
              </Text>
              {MENU_SECONDARY_ENTRIES.map(menuLink)}
            </div>
          )}
        </AppShell.Section>
        <AppShell.Section>
          <AdminEntries menuLink={menuLink} />
          {MENU_ACCOUNT_ENTRIES.map(menuLink)}
          <NavLink
            component="button"
            label="Sign Out"
            leftSection={<IconLogout size={18} stroke={1.7} />}
            onClick={signOut}
            styles={{ root: { borderRadius: 'var(--mantine-radius-md)' } }}
          />
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id={MAIN_CONTENT_ID} tabIndex={-1}>
        <Box maw={1280} mx="auto">
          <Suspense fallback={<Skeleton h={32} w={280} />}>
            <Outlet />
          </Suspense>
        </Box>
      </AppShell.Main>
    </AppShell>
  );
}

// The two parts of the top bar that show an answer read it themselves: an answer then redraws only
// them, not the whole shell (issue 24: each redraw of the shell was a long task on a phone's CPU).

/** Administration, for admins only (the server guards its calls whoever opens it). */
function AdminEntries({ menuLink }: { menuLink: (entry: MenuEntry) => ReactNode }) {
  const user = useCurrentUser();
  return user.data?.role === 'admin' ? <>{MENU_ADMIN_ENTRIES.map(menuLink)}</> : null;
}

/** Spec §2's top bar: "Username: <email>". */
function UserName({ narrow }: { narrow: boolean }) {
  const user = useCurrentUser();
  return user.data ? (
    <Text size="sm" truncate maw={narrow ? 150 : 360} title={`Username: ${user.data.email}`}>
      Username: {user.data.email}
    </Text>
  ) : (
    <Skeleton h={14} w={180} aria-label="Loading user" />
  );
}

export { DashboardShell as Component };
