/**
 * The dashboard's routes (spec §2, and `scans` of issue 26). The menu lists the spec's eleven
 * entries in the spec's order, with Custom Scans (issue 26) after All Stocks Scanner; the other
 * child routes exist and are reached through the second group.
 */
export const DASHBOARD_CHILD_PATHS = [
  'main',
  'dropscanner',
  'symbollookup',
  'calendar',
  'generalnews',
  'stocknews',
  'trumpnews',
  'options',
  'support',
  'options2',
  'allstockscanner',
  'stockshort',
  'cryptoscanner',
  'alert',
  'drop',
  'scans',
  'account',
  'admin',
] as const;

export type DashboardChildPath = (typeof DASHBOARD_CHILD_PATHS)[number];

export interface MenuEntry {
  readonly name: string;
  readonly link: `/dashboard/${DashboardChildPath}`;
}

export const MENU_ENTRIES: readonly MenuEntry[] = [
  { name: 'Main Dashboard', link: '/dashboard/main' },
  { name: 'WatchList', link: '/dashboard/symbollookup' },
  { name: 'Drop Scanner', link: '/dashboard/dropscanner' },
  { name: 'Crypto Scanner', link: '/dashboard/cryptoscanner' },
  { name: 'Option Scanner', link: '/dashboard/options2' },
  { name: 'Long Term Scanner', link: '/dashboard/allstockscanner' },
  { name: 'Swing Trade Scanner', link: '/dashboard/stockshort' },
  { name: 'All Stocks Scanner', link: '/dashboard/drop' },
  { name: 'Custom Scans', link: '/dashboard/scans' },
  { name: 'Earnings Calendar', link: '/dashboard/calendar' },
  { name: 'Contact Support', link: '/dashboard/support' },
  { name: 'Alert System', link: '/dashboard/alert' },
];

/**
 * A second menu group, below the first group (the spec's entries keep their order), so every screen
 * is reachable: the spec's menu has no entry for options, generalnews, stocknews or trumpnews.
 */
export const MENU_SECONDARY_TITLE = 'More screens';
export const MENU_SECONDARY_ENTRIES: readonly MenuEntry[] = [
  { name: 'Option Signals', link: '/dashboard/options' },
  { name: 'Geo-Political News', link: '/dashboard/generalnews' },
  { name: 'News By Stock', link: '/dashboard/stocknews' },
  { name: 'Trump News', link: '/dashboard/trumpnews' },
];

/** Beside Sign Out at the foot of the menu (issue 28): the signed-in user's own account (password, sessions). */
export const MENU_ACCOUNT_ENTRIES: readonly MenuEntry[] = [{ name: 'Account', link: '/dashboard/account' }];

/** Shown only to admins (issue 28), above Account; the server guards the screen's every call. */
export const MENU_ADMIN_ENTRIES: readonly MenuEntry[] = [{ name: 'Administration', link: '/dashboard/admin' }];

/** The title each dashboard screen shows (spec §2 headings). */
export const SCREEN_TITLES: Readonly<Record<DashboardChildPath, string>> = {
  main: 'Market Dashboard',
  dropscanner: 'Drop and Recovery Scanner',
  symbollookup: 'Add and Remove Stocks',
  calendar: 'Earnings Calendar',
  generalnews: 'Geo-Political News',
  stocknews: 'News By Stock',
  trumpnews: 'Trump News',
  // The spec names the options2 screen 'Options Scanner'; the options screen's heading is not given,
  // and it takes its secondary menu entry's name so that the two option screens are told apart (issue 25).
  options: 'Option Signals',
  support: 'Contact Support',
  options2: 'Options Scanner',
  allstockscanner: 'Stock Layered Entry & Exit Plan',
  stockshort: 'Stock Short-Term Trades',
  cryptoscanner: 'Crypto Scanner',
  alert: 'Alert System Settings',
  drop: 'Drop Scanner Alerts',
  scans: 'Custom Scans',
  account: 'Account',
  admin: 'Administration',
};

/**
 * The one name of each screen's feature in the code (issue 25): the web feature folder
 * (apps/web/src/features/<name>/), the e2e spec (e2e/<name>*.spec.ts) and the name
 * docs/architecture.md's feature table uses. Routes, menu labels and titles stay the spec's.
 * `npm run check:structure` holds the web folders and the router's imports to it.
 */
export const FEATURE_OF_SCREEN = {
  main: 'dashboard',
  symbollookup: 'watchlist',
  dropscanner: 'drop-scanner',
  cryptoscanner: 'crypto',
  options2: 'option-trades',
  allstockscanner: 'long-term',
  stockshort: 'swing',
  drop: 'drop-items',
  calendar: 'earnings-calendar',
  support: 'support',
  alert: 'alerts',
  options: 'option-signals',
  generalnews: 'news',
  stocknews: 'news',
  trumpnews: 'news',
  scans: 'custom-scans',
  account: 'account',
  admin: 'admin',
} as const satisfies Record<DashboardChildPath, string>;

export type FeatureName = (typeof FEATURE_OF_SCREEN)[DashboardChildPath];

/** The titles of the screens outside the dashboard (spec §4, §5). */
export const AUTH_SCREEN_TITLES = { login: 'Sign in', setPassword: 'Change Password', setTwoFactor: 'Turn on two-factor sign-in', invitation: 'Create your account', signUp: 'Create an account' } as const;

/** The product's name, last in every document title. */
export const APP_NAME = 'Signalboard';

/** A page's document title: 'Drop and Recovery Scanner · Signalboard'. */
export const documentTitle = (title: string): string => `${title} · ${APP_NAME}`;

/** A dashboard screen's document title, built from its heading (SCREEN_TITLES; no two screens share one). */
export function screenDocumentTitle(path: DashboardChildPath): string {
  return documentTitle(SCREEN_TITLES[path]);
}
