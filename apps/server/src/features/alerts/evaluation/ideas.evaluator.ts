/**
 * Idea events (issue 15; docs/rules/alerts.md): OPTION_ALERT, STOCK_DROP_ALERTS,
 * ALLSTOCKS_PROGRESS_ALERT, BITCOIN label changes, and the alerts users saved on the trade screens.
 * Read from the append-only idea_events log after the last transaction handled (alert_cursors),
 * live events only; the alerts are written in the transaction that moves the cursor.
 */
import {
  cryptoLabelChangeMessage,
  dataVersionIn,
  dropItemsMessage,
  importedSourceLabel,
  optionTradeOpenedMessage,
  savedIdeaEventMessage,
  swingProgressMessage,
  type AlertChannel,
  type EngineId,
} from '@signalboard/core';
import { hasSmsNumber, insertAlert, SAVED_OPTION_TRADE, SAVED_STOCK_SCANNER, type NewAlert } from './alert-store';
import {
  finishedIdeaTransactions,
  IDEA_CURSOR,
  IDEA_TRANSACTIONS_PER_READ,
  ideaEventsThrough,
  lockCursor,
  moveCursor,
  rulesOfType,
  savesOfIdeas,
  snapshotHorizon,
  type EventRow,
} from './evaluation.repo';
import type { EvaluatorDeps } from './evaluation.types';
import { channelsOf, ruleSnapshot } from './rule-snapshot';

/** An engine's idea event is news for the rest of the day; sent later it would mislead. */
export const IDEA_ALERT_FRESH_MS = 6 * 60 * 60_000;
/** Idea events read per pass. */
const IDEA_EVENT_BATCH = 500;

/**
 * Which engine's events each idea alert type watches (docs/rules/alerts.md §3): the one table that
 * ties an alert type to an engine, so the evaluation below never branches on an engine itself.
 */
export const IDEA_ALERT_WATCHES = {
  OPTION_ALERT: { engine: 'options', events: ['opened'] },
  STOCK_DROP_ALERTS: { engine: 'drop', events: ['opened'] },
  ALLSTOCKS_PROGRESS_ALERT: { engine: 'swing', events: ['opened', 'target_hit'] },
  BITCOIN: { engine: 'crypto', events: ['signal_changed'] },
} as const satisfies Record<string, { engine: EngineId; events: readonly string[] }>;

/** The engines whose ideas a user can save an alert on (the trade screens' Alert checkbox), and how that alert reads. */
const SAVED_IDEA_ALERTS = {
  options: { alertType: SAVED_OPTION_TRADE, screen: 'option', saved: 'option trade' },
  drop: { alertType: SAVED_STOCK_SCANNER, screen: 'drop', saved: 'drop item' },
} as const satisfies Partial<Record<EngineId, { alertType: string; screen: 'option' | 'drop'; saved: string }>>;

const savedIdeaAlertOf = (engine: string) => (Object.hasOwn(SAVED_IDEA_ALERTS, engine) ? SAVED_IDEA_ALERTS[engine as keyof typeof SAVED_IDEA_ALERTS] : undefined);

/** The events of `events` an alert type watches. */
const watched = (events: readonly EventRow[], watch: { engine: EngineId; events: readonly string[] }) =>
  events.filter((event) => event.engine === watch.engine && watch.events.includes(event.type));

export interface IdeaEvaluator {
  /** One pass over the idea events after the cursor: the events read and whether more are waiting. */
  consumeOnce(): Promise<{ read: number; more: boolean }>;
}

export function createIdeaEvaluator(deps: EvaluatorDeps): IdeaEvaluator {
  const { db, marketClock, clock, source } = deps;

  const ideaAlertBase = (now: Date) => ({ firedAt: now, expiresAt: new Date(now.getTime() + IDEA_ALERT_FRESH_MS) });

  /** The alerts a batch of events makes (pure but for the rule and saved-alert reads). */
  const alertsOfEvents = async (events: readonly EventRow[], now: Date): Promise<NewAlert[]> => {
    const alerts: NewAlert[] = [];
    const data = (event: EventRow) => (event.data ?? {}) as Record<string, unknown>;
    // An idea of an imported symbol on a rule version run on imported prices (its id names the data:
    // trades.versions.ts): its alert's source says so (docs/data-in-and-out.md "Where imported figures are labelled").
    const imported = new Set((await deps.market.importedSymbols?.())?.map((info) => info.symbol));
    const sourceLabel = (events: readonly EventRow[]) => (events.some((event) => imported.has(event.symbol) && dataVersionIn(event.ideaId) !== '') ? importedSourceLabel(source) : source);
    const recordedAs = (event: EventRow) => ({ engine: event.engine, idea_id: event.ideaId, event: event.type, level: event.level, bar_date: event.barDate, price: event.price, sequence: event.sequence, source: sourceLabel([event]), asOf: event.recordedAt.toISOString() });
    const sourceOf = (...events: EventRow[]) => ({ source: sourceLabel(events), asOfMs: events[0]!.recordedAt.getTime() });

    // OPTION_ALERT: a new option trade on a chosen ticker.
    const optionOpens = watched(events, IDEA_ALERT_WATCHES.OPTION_ALERT);
    if (optionOpens.length > 0) {
      for (const rule of await rulesOfType(db, 'OPTION_ALERT')) {
        for (const event of optionOpens) {
          if (!rule.symbols.includes(event.symbol)) continue;
          const opened = data(event);
          const message = optionTradeOpenedMessage({
            symbol: event.symbol,
            type: String(opened.side).toUpperCase() === 'PUT' ? 'PUT' : 'CALL',
            expiration: String(opened.expiry ?? ''),
            strike: Number(opened.strike ?? 0),
            entry: Number(opened.signalValue ?? 0),
            strength: Number(opened.strengthScore ?? 0),
            ...sourceOf(event),
          });
          alerts.push({ userId: rule.userId, alertType: 'OPTION_ALERT', symbol: event.symbol, triggerKey: `idea:${event.sequence}`, rule: ruleSnapshot(rule), data: recordedAs(event), ...message, channels: channelsOf(rule), ...ideaAlertBase(now) });
        }
      }
    }

    // STOCK_DROP_ALERTS: the drop engine's new items, one message per pass (per bar date in the batch).
    const dropOpens = watched(events, IDEA_ALERT_WATCHES.STOCK_DROP_ALERTS);
    if (dropOpens.length > 0) {
      const byDate = groupBy(dropOpens, (event) => event.barDate);
      const rules = await rulesOfType(db, 'STOCK_DROP_ALERTS');
      for (const [barDate, group] of byDate) {
        const message = dropItemsMessage(group.map((event) => ({ symbol: event.symbol, tradeType: String(data(event).stockType ?? ''), ...(event.price !== null ? { entry: event.price } : {}) })), sourceOf(...group));
        for (const rule of rules) {
          alerts.push({ userId: rule.userId, alertType: 'STOCK_DROP_ALERTS', symbol: '*', triggerKey: `drop:${barDate}:${group[0]!.sequence}`, rule: ruleSnapshot(rule), data: { engine: IDEA_ALERT_WATCHES.STOCK_DROP_ALERTS.engine, bar_date: barDate, items: group.map(recordedAs), source: sourceLabel(group), asOf: group[0]!.recordedAt.toISOString() }, ...message, channels: channelsOf(rule), ...ideaAlertBase(now) });
        }
      }
    }

    // ALLSTOCKS_PROGRESS_ALERT: the swing engine opens trades or one hits a target, one message per pass.
    const swingProgress = watched(events, IDEA_ALERT_WATCHES.ALLSTOCKS_PROGRESS_ALERT);
    if (swingProgress.length > 0) {
      const byDate = groupBy(swingProgress, (event) => event.barDate);
      const rules = await rulesOfType(db, 'ALLSTOCKS_PROGRESS_ALERT');
      for (const [barDate, group] of byDate) {
        const message = swingProgressMessage(group.map((event) => ({ symbol: event.symbol, kind: event.type === 'opened' ? ('opened' as const) : ('target' as const), price: event.price ?? 0 })), sourceOf(...group));
        for (const rule of rules) {
          alerts.push({ userId: rule.userId, alertType: 'ALLSTOCKS_PROGRESS_ALERT', symbol: '*', triggerKey: `swing:${barDate}:${group[0]!.sequence}`, rule: ruleSnapshot(rule), data: { engine: IDEA_ALERT_WATCHES.ALLSTOCKS_PROGRESS_ALERT.engine, bar_date: barDate, items: group.map(recordedAs), source: sourceLabel(group), asOf: group[0]!.recordedAt.toISOString() }, ...message, channels: channelsOf(rule), ...ideaAlertBase(now) });
        }
      }
    }

    // BITCOIN: a chosen coin's crypto-scanner signal changed label.
    const labelChanges = watched(events, IDEA_ALERT_WATCHES.BITCOIN);
    if (labelChanges.length > 0) {
      for (const rule of await rulesOfType(db, 'BITCOIN')) {
        for (const event of labelChanges) {
          if (!rule.symbols.includes(event.symbol)) continue;
          const changed = data(event);
          const message = cryptoLabelChangeMessage({
            symbol: event.symbol,
            horizon: String(changed.horizon ?? event.level ?? ''),
            from: String(changed.from ?? changed.previous ?? ''),
            to: String(changed.to ?? changed.label ?? ''),
            price: event.price ?? 0,
            ...sourceOf(event),
          });
          alerts.push({ userId: rule.userId, alertType: 'BITCOIN', symbol: event.symbol, triggerKey: `idea:${event.sequence}`, rule: ruleSnapshot(rule), data: recordedAs(event), ...message, channels: channelsOf(rule), ...ideaAlertBase(now) });
        }
      }
    }

    // Saved alerts of the trade screens: their idea's target, stop, time exit or deactivation.
    const closing = events.filter((event) => savedEventKind(event) !== null && savedIdeaAlertOf(event.engine) !== undefined);
    if (closing.length > 0) {
      const ids = [...new Set(closing.map((event) => event.ideaId))];
      const { optionSaves, dropSaves, labels } = await savesOfIdeas(db, ids);
      const savesByScreen = { option: optionSaves.map((save) => ({ ...save, tradeType: null as string | null })), drop: dropSaves };
      const smsUsers = new Map<number, boolean>();
      const channelsFor = async (userId: number): Promise<AlertChannel[]> => {
        if (!smsUsers.has(userId)) smsUsers.set(userId, await hasSmsNumber(db, userId));
        return smsUsers.get(userId) ? ['sms', 'email'] : ['email'];
      };
      for (const event of closing) {
        const kind = savedEventKind(event)!;
        const { alertType, screen, saved } = savedIdeaAlertOf(event.engine)!;
        const row = labels.get(event.ideaId) ?? {};
        const saves = savesByScreen[screen].filter((save) => save.ideaId === event.ideaId);
        for (const save of saves) {
          const label = String(row.ContractName ?? row.Contract ?? row.Type ?? save.tradeType ?? event.symbol);
          const message = savedIdeaEventMessage({ kind, screen, symbol: event.symbol, label, price: event.price ?? 0, ...sourceOf(event) });
          alerts.push({
            userId: save.userId,
            alertType,
            symbol: event.symbol,
            triggerKey: `idea:${event.sequence}`,
            rule: { saved, idea_id: event.ideaId, ...(save.tradeType ? { trade_type: save.tradeType } : {}) },
            data: recordedAs(event),
            ...message,
            channels: await channelsFor(save.userId),
            ...ideaAlertBase(now),
          });
        }
      }
    }
    return alerts;
  };

  /**
   * One pass over the idea events by transaction (idea_events.tx_id): the cursor is a transaction id
   * such that every transaction below it has been handled. A pass reads only transactions older than
   * every one still running (pg_snapshot_xmin), whole, oldest first, about IDEA_EVENT_BATCH events
   * at a time: an engine's transaction that commits after a later one was read is still ahead of the
   * cursor, so no event is skipped. Answers the events read and whether more are waiting.
   */
  const consumeOnce = async (): Promise<{ read: number; more: boolean }> => {
    const now = new Date(clock.nowMs());
    // The cursor row is locked for the pass: two processes read and advance it one after the other.
    const { read, more, queued, inserted } = await db.transaction(async (tx) => {
      // A new installation starts after the events already there (the replay's history alerts nobody).
      const start = await snapshotHorizon(tx);
      const position = await lockCursor(tx, IDEA_CURSOR, start, now);
      // Replayed history is never news (evaluation.repo.ts: only live openings and recent events are read).
      const recentFrom = new Date(marketClock.nowMs() - IDEA_ALERT_FRESH_MS);
      const transactions = await finishedIdeaTransactions(tx, position, recentFrom);
      if (transactions.length === 0) {
        // Nothing finished since the cursor: move it up to the horizon (every transaction below is done).
        const horizon = await snapshotHorizon(tx);
        if (horizon > position) await moveCursor(tx, IDEA_CURSOR, horizon, now);
        return { read: 0, more: false, queued: false, inserted: [] as NewAlert[] };
      }
      let taken = 0;
      let last = transactions[0]!.tx;
      for (const row of transactions) {
        if (taken > 0 && taken + row.n > IDEA_EVENT_BATCH) break;
        taken += row.n;
        last = row.tx;
      }
      const events = await ideaEventsThrough(tx, position, last, recentFrom);
      let queuedAny = false;
      const inserted: NewAlert[] = [];
      for (const alert of await alertsOfEvents(events, now)) {
        if ((await insertAlert(tx, alert)) === null) continue;
        inserted.push(alert);
        if (alert.channels.length > 0) queuedAny = true;
      }
      await moveCursor(tx, IDEA_CURSOR, Number(last) + 1, now);
      return { read: events.length, more: last !== transactions[transactions.length - 1]!.tx || transactions.length === IDEA_TRANSACTIONS_PER_READ, queued: queuedAny, inserted };
    });
    for (const alert of inserted) deps.alertCommitted?.(alert);
    if (queued) deps.delivery?.kick();
    return { read, more };
  };

  return { consumeOnce };
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group) group.push(item);
    else groups.set(name, [item]);
  }
  return groups;
}

/** What a saved alert says of an event: target, stop, time exit, deactivated (null: no alert). */
function savedEventKind(event: { type: string; data: unknown }): 'target' | 'stop' | 'time_exit' | 'deactivated' | null {
  switch (event.type) {
    case 'target_hit':
      return 'target';
    case 'stop_hit':
      return 'stop';
    case 'time_stop':
      return 'time_exit';
    case 'voided':
      return 'deactivated';
    case 'closed': {
      const reason = (event.data as { reason?: string } | null)?.reason;
      return reason === 'target' || reason === 'stop' || reason === 'time' ? null : 'deactivated';
    }
    default:
      return null;
  }
}
