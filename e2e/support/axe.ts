/**
 * axe-core in the browser tests (WCAG 2.2 AA, docs/design.md "Accessibility"). The app's CSP allows only
 * `script-src 'self'`, so axe is not added as a script tag: `page.evaluate` runs its source through
 * the DevTools protocol, which the page's CSP does not govern.
 */
import axe from 'axe-core';
import type { Page } from 'playwright-core';

/** The WCAG 2.0, 2.1 and 2.2 rules of levels A and AA. */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] as const;
/** What fails a test; 'moderate' and 'minor' findings are reported, not fatal. */
export const BLOCKING_IMPACTS: ReadonlySet<string> = new Set(['serious', 'critical']);

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  helpUrl: string;
  nodes: Array<{ target: string; summary: string }>;
}

/**
 * Waits until nothing on the page is mid-transition (a fading notification or an opening panel
 * would be measured at partial opacity); endless animations (spinners, skeletons) are ignored.
 */
export async function settle(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running' || animation.effect?.getComputedTiming().iterations === Infinity),
  );
}

/** Runs axe on the whole page (after it settles) and answers every violation found. */
export async function runAxe(page: Page): Promise<AxeFinding[]> {
  await settle(page);
  const loaded = await page.evaluate(() => typeof (window as unknown as { axe?: unknown }).axe === 'object');
  if (!loaded) await page.evaluate(axe.source);
  const violations = await page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof axe }).axe
        .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .then((results) => results.violations),
    [...WCAG_TAGS],
  );
  return violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact ?? 'unknown',
    help: violation.help,
    helpUrl: violation.helpUrl,
    nodes: violation.nodes.map((node) => ({
      target: node.target.map(String).join(' '),
      summary: (node.failureSummary ?? '').replace(/\s+/g, ' ').trim(),
    })),
  }));
}

export const blocking = (findings: AxeFinding[]): AxeFinding[] => findings.filter((finding) => BLOCKING_IMPACTS.has(finding.impact));

/** One paragraph per violation: rule, impact, what it asks, then each element and why it fails. */
export function describeFindings(findings: AxeFinding[]): string {
  return findings
    .map((finding) =>
      [
        `${finding.id} (${finding.impact}): ${finding.help} — ${finding.helpUrl}`,
        ...finding.nodes.map((node) => `  • ${node.target}\n    ${node.summary}`),
      ].join('\n'),
    )
    .join('\n');
}

/** Counts the elements concerned (not the rules), which is what changes as a fault is fixed. */
export const countNodes = (findings: AxeFinding[]): number => findings.reduce((sum, finding) => sum + finding.nodes.length, 0);
