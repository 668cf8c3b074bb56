/** Helpers the news and dashboard specs share: what a page logged, news cards, and dates as screens show them. */
import type { Locator, Page } from 'playwright-core';

/** Collects the page's console lines and dialog messages (dialogs are dismissed) into `into`. */
export function watchPage(target: Page, into: { logged: string[]; dialogs?: string[] }): void {
  target.on('console', (message) => into.logged.push(message.text()));
  target.on('dialog', (dialog) => {
    into.dialogs?.push(dialog.message());
    void dialog.dismiss();
  });
}

/** A news card by its headline (cards are articles named by their headline). */
export const newsCard = (target: Page, headline: string): Locator => target.getByRole('article', { name: headline, exact: true });

/** The headlines (level-2 headings, under the screen's h1) of `cards`, in order. */
export const cardHeadlines = async (cards: Locator): Promise<string[]> => (await cards.getByRole('heading', { level: 2 }).allInnerTexts()).map((text) => text.trim());

/** A card's text as its non-empty lines, white space normalised. */
export const cardLines = async (card: Locator): Promise<string[]> =>
  (await card.innerText())
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean);

/** The medium date the screens show (e.g. 'Nov 20, 2026, 3:30:00 PM') in the browser's time zone. */
export async function mediumDate(target: Page, unixSeconds: number): Promise<string> {
  const timeZone = await target.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone);
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, month: 'short', day: 'numeric', year: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit', hour12: true }).formatToParts(
    new Date(unixSeconds * 1000),
  );
  const part = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${part('month')} ${part('day')}, ${part('year')}, ${part('hour')}:${part('minute')}:${part('second')} ${part('dayPeriod')}`;
}

/** Serves the fixtures' https images (images.example.test) as a small picture, so cards show them offline. */
export async function serveTestImages(target: Page, color = '#2f9e44'): Promise<void> {
  await target.route('https://images.example.test/**', (route) =>
    route.fulfill({
      contentType: 'image/svg+xml',
      body: `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="320"><rect width="640" height="320" fill="${color}"/><rect x="120" y="90" width="400" height="140" fill="#fff3bf"/></svg>`,
    }),
  );
}
