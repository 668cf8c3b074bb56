/**
 * The alerts server's TEST_CONTROL_FILE (apps/server/src/lib/test-control.ts): the tests move its
 * quotes and its wall clock by rewriting the file (atomically: a whole file or the old one, never
 * half). Each change names everything in force: a test puts back what it changed when it ends.
 */
import fs from 'node:fs/promises';
import { inject } from 'vitest';
import { serverBaseUrl } from './browser';

export interface TestControlValues {
  quotes?: Record<string, { price: number; previousClose?: number }>;
  clockOffsetMs?: number;
  /** The market clock instead of MARKET_NOW (ISO). */
  marketNow?: string;
}

let written = 0;

export async function setTestControl(values: TestControlValues): Promise<void> {
  const file = inject('alertsControlFile');
  written += 1;
  const temporary = `${file}.${process.pid}.${written}.tmp`;
  await fs.writeFile(temporary, JSON.stringify(values));
  await fs.rename(temporary, file);
}

/** When the alerts server last finished evaluating the alert rules (its /api/health). */
async function alertsEvaluatedAt(): Promise<number | null> {
  const response = await fetch(`${serverBaseUrl('alerts')}/api/health`);
  const body = (await response.json()) as { alerts_evaluated_at?: number | null };
  return body.alerts_evaluated_at ?? null;
}

/**
 * Waits until the alert evaluation has run a whole pass that started after this call (two finished
 * passes: the first may have been under way already), so a quote written before is evaluated.
 */
export async function waitForAlertPasses(): Promise<void> {
  let last = await alertsEvaluatedAt();
  for (let passes = 0; passes < 2; ) {
    const deadline = Date.now() + 20_000;
    let now = await alertsEvaluatedAt();
    while (now === last) {
      if (Date.now() > deadline) throw new Error('the alert evaluation did not run within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 100));
      now = await alertsEvaluatedAt();
    }
    last = now;
    passes += 1;
  }
}
