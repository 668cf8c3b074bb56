/**
 * News batches (issue 15; docs/rules/alerts.md §2 "The eleven types"): the market news that arrived since
 * the last batch (alert_cursors) becomes one alert per rule of GENERAL_NEWS (a chosen category) and
 * NEWS+TRUMP+MAG7+ALPHA / NEWS+TRUMP+MAG7+GNEWS (a chosen keyword); the categories, keywords and
 * gist are news-alerts.ts.
 */
import { newsBatchMessage } from '@signalboard/core';
import { insertAlert, type NewAlert } from './alert-store';
import { lockCursor, moveCursor, NEWS_CURSOR, rulesOfType, type RuleRow } from './evaluation.repo';
import type { EvaluatorDeps } from './evaluation.types';
import { newsCategoriesOf, newsGist, newsKeywordsOf } from './news-alerts';
import { channelsOf, ruleSnapshot } from './rule-snapshot';

/** A news batch is stale after two hours. */
export const NEWS_ALERT_FRESH_MS = 2 * 60 * 60_000;

export interface NewsEvaluator {
  /** One batch of the news that arrived since the cursor; answers how many articles were new. */
  consumeNewsOnce(): Promise<number>;
}

export function createNewsEvaluator(deps: EvaluatorDeps): NewsEvaluator {
  const { db, market, clock, source } = deps;

  const consumeNewsOnce = async (): Promise<number> => {
    const articles = (await market.getMarketNews()).value;
    const now = new Date(clock.nowMs());
    const newest = articles.reduce((max, article) => Math.max(max, article.datetime), 0);
    const { fresh, queued, inserted } = await db.transaction(async (tx) => {
      // A new installation starts after the news already there (old news alerts nobody).
      const position = await lockCursor(tx, NEWS_CURSOR, newest, now);
      const arrived = articles.filter((article) => article.datetime > position).sort((a, b) => b.datetime - a.datetime);
      if (arrived.length === 0) return { fresh: 0, queued: false, inserted: [] as NewAlert[] };
      const batchKey = `news:${newest}`;
      const expiresAt = new Date(now.getTime() + NEWS_ALERT_FRESH_MS);
      const alerts: NewAlert[] = [];
      const batchAlert = (rule: RuleRow, matched: typeof arrived, note: string | null): NewAlert => {
        const message = newsBatchMessage({ count: matched.length, headlines: matched.slice(0, 3).map((article) => article.headline), gist: newsGist(matched) });
        return {
          userId: rule.userId,
          alertType: rule.alertType,
          symbol: '*',
          triggerKey: batchKey,
          rule: ruleSnapshot(rule),
          data: { count: matched.length, headlines: matched.slice(0, 3).map((article) => ({ headline: article.headline, source: article.source, url: article.url, datetime: new Date(article.datetime * 1000).toISOString() })), source: `${source} news`, asOf: new Date(newest * 1000).toISOString(), ...(note ? { note } : {}) },
          smsText: message.smsText,
          emailSubject: message.emailSubject,
          emailText: note ? `${message.emailText}\n\n${note}` : message.emailText,
          channels: channelsOf(rule),
          firedAt: now,
          expiresAt,
        };
      };
      for (const rule of await rulesOfType(db, 'GENERAL_NEWS')) {
        const matched = arrived.filter((article) => newsCategoriesOf(article).some((category) => rule.symbols.includes(category)));
        if (matched.length > 0) alerts.push(batchAlert(rule, matched, null));
      }
      for (const type of ['NEWS+TRUMP+MAG7+ALPHA', 'NEWS+TRUMP+MAG7+GNEWS'] as const) {
        const provider = type === 'NEWS+TRUMP+MAG7+ALPHA' ? 'Alpha Vantage' : 'GNews';
        const note = `${provider} is not configured on this installation: these headlines come from ${source} news.`;
        for (const rule of await rulesOfType(db, type)) {
          const matched = arrived.filter((article) => newsKeywordsOf(article, rule.symbols).length > 0);
          if (matched.length > 0) alerts.push(batchAlert(rule, matched, note));
        }
      }
      let queuedAny = false;
      const inserted: NewAlert[] = [];
      for (const alert of alerts) {
        if ((await insertAlert(tx, alert)) === null) continue;
        inserted.push(alert);
        if (alert.channels.length > 0) queuedAny = true;
      }
      await moveCursor(tx, NEWS_CURSOR, newest, now);
      return { fresh: arrived.length, queued: queuedAny, inserted };
    });
    for (const alert of inserted) deps.alertCommitted?.(alert);
    if (queued) deps.delivery?.kick();
    return fresh;
  };

  return { consumeNewsOnce };
}
