import { describe, expect, it } from 'vitest';
import { AUTH_SCREEN_TITLES, DASHBOARD_CHILD_PATHS, documentTitle, screenDocumentTitle, SCREEN_TITLES } from './menu';

describe('document titles', () => {
  it("names the screen, then the product: 'Drop and Recovery Scanner · Signalboard'", () => {
    expect(screenDocumentTitle('dropscanner')).toBe('Drop and Recovery Scanner · Signalboard');
    expect(screenDocumentTitle('main')).toBe('Market Dashboard · Signalboard');
    expect(documentTitle(AUTH_SCREEN_TITLES.login)).toBe('Sign in · Signalboard');
    expect(documentTitle(AUTH_SCREEN_TITLES.setPassword)).toBe('Change Password · Signalboard');
  });

  it('tells apart the screens that share a heading by their menu entry', () => {
    expect(SCREEN_TITLES.options).toBe(SCREEN_TITLES.options2);
    expect(screenDocumentTitle('options')).toBe('Options Scanner (Option Signals) · Signalboard');
    expect(screenDocumentTitle('options2')).toBe('Options Scanner (Option Scanner) · Signalboard');
  });

  it('gives every dashboard screen a title of its own, starting with its heading', () => {
    const titles = DASHBOARD_CHILD_PATHS.map(screenDocumentTitle);
    expect(new Set(titles).size).toBe(DASHBOARD_CHILD_PATHS.length);
    for (const path of DASHBOARD_CHILD_PATHS) expect(screenDocumentTitle(path).startsWith(SCREEN_TITLES[path])).toBe(true);
  });
});
