import { describe, expect, it } from 'vitest';
import { AUTH_SCREEN_TITLES, DASHBOARD_CHILD_PATHS, documentTitle, screenDocumentTitle, SCREEN_TITLES } from './menu';

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
