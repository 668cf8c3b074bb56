/**
 * Auto-pause of a runaway rule (docs/rules/alerts.md §4.4 "Noise control"): a rule that fired more than 15 times in
 * 3 minutes is turned off (is_active false) with auto_paused_at set; the rule's answer carries
 * auto_paused_at, so the screen tells the user why and that a save turns it on again.
 */
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { Database } from '../../../db/client';
import { alertEvents, alertRules } from '../../../db/schema';

export const RUNAWAY_MAX_EVENTS = 15;
export const RUNAWAY_WINDOW_MS = 3 * 60_000;

/** Pauses the user's rule of `alertType` when it is a runaway; answers whether it paused it now. */
export async function autoPauseIfRunaway(db: Database, userId: number, alertType: string, now: Date): Promise<boolean> {
  const [row] = await db
    .select({ n: count() })
    .from(alertEvents)
    .where(and(eq(alertEvents.userId, userId), eq(alertEvents.alertType, alertType), gt(alertEvents.firedAt, new Date(now.getTime() - RUNAWAY_WINDOW_MS))));
  if ((row?.n ?? 0) <= RUNAWAY_MAX_EVENTS) return false;
  const paused = await db
    .update(alertRules)
    .set({ isActive: false, autoPausedAt: now })
    .where(and(eq(alertRules.userId, userId), eq(alertRules.alertType, alertType), eq(alertRules.isActive, true), isNull(alertRules.autoPausedAt)))
    .returning({ userId: alertRules.userId });
  return paused.length > 0;
}
