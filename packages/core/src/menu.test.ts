import { describe, expect, it } from 'vitest';
import { AUTH_SCREEN_TITLES, DASHBOARD_CHILD_PATHS, documentTitle, FEATURE_OF_SCREEN, MENU_ACCOUNT_ENTRIES, MENU_ADMIN_ENTRIES, MENU_ENTRIES, MENU_SECONDARY_ENTRIES, screenDocumentTitle, SCREEN_TITLES } from './menu';

describe('document titles', () => {
  it("names the screen, then the product: 'Drop and Recovery Scanner · Signalboard'", () => {
    expect(screenDocumentTitle('dropscanner')).toBe('Drop and Recovery Scanner · Signalboard');
    expect(screenDocumentTitle('main')).toBe('Market Dashboard · Signalboard');
    expect(documentTitle(AUTH_SCREEN_TITLES.login)).toBe('Sign in · Signalboard');
    expect(documentTitle(AUTH_SCREEN_TITLES.setPassword)).toBe('Change Password · Signalboard');
  });

  it('tells the two option screens apart: options2 keeps the spec\'s heading, options takes its menu entry\'s name', () => {
    expect(screenDocumentTitle('options')).toBe('Option Signals · Signalboard');
    expect(screenDocumentTitle('options2')).toBe('Options Scanner · Signalboard');
  });

  it('gives every dashboard screen a heading and a title of its own', () => {
    expect(new Set(Object.values(SCREEN_TITLES)).size).toBe(DASHBOARD_CHILD_PATHS.length);
    for (const path of DASHBOARD_CHILD_PATHS) expect(screenDocumentTitle(path)).toBe(`${SCREEN_TITLES[path]} · Signalboard`);
  });
});

describe('the menu', () => {
  it("lists the spec's eleven entries in order, with Custom Scans (issue 26) right after All Stocks Scanner", () => {
    expect(MENU_ENTRIES.map((entry) => entry.name)).toEqual([
      'Main Dashboard',
      'WatchList',
      'Drop Scanner',
      'Crypto Scanner',
      'Option Scanner',
      'Long Term Scanner',
      'Swing Trade Scanner',
      'All Stocks Scanner',
      'Custom Scans',
      'Earnings Calendar',
      'Contact Support',
      'Alert System',
    ]);
    expect(MENU_ENTRIES.find((entry) => entry.name === 'Custom Scans')?.link).toBe('/dashboard/scans');
  });

  it('gives the scans route its title and its feature', () => {
    expect(SCREEN_TITLES.scans).toBe('Custom Scans');
    expect(screenDocumentTitle('scans')).toBe('Custom Scans · Signalboard');
    expect(FEATURE_OF_SCREEN.scans).toBe('custom-scans');
  });

  it('reaches every route from one of its groups (the two lists, the account entry at the foot), and links only routes that exist', () => {
    const linked = [...MENU_ENTRIES, ...MENU_SECONDARY_ENTRIES, ...MENU_ACCOUNT_ENTRIES, ...MENU_ADMIN_ENTRIES].map((entry) => entry.link.replace('/dashboard/', ''));
    expect(new Set(linked).size).toBe(linked.length);
    expect([...linked].sort()).toEqual([...DASHBOARD_CHILD_PATHS].sort());
  });
});
