import type { FastifyInstance } from 'fastify';
import type { CachedMarket } from '../../providers/market/cached-market';
import { NEWS_IMAGE_SESSIONS, renderNewsImageSvg } from '../../providers/market/simulated/news-image';
import { UnknownSymbolError, type NewsArticle } from '../../providers/market/types';

/** The index whose chart illustrates market news. */
const MARKET_NEWS_INDEX = { symbol: 'SPY', name: 'S&P 500 (SPY)' };
/** Calendar days of bars read for an image: enough for NEWS_IMAGE_SESSIONS sessions. */
const IMAGE_HISTORY_DAYS = 60;
/** The card of a running session's article moves with the price: cache it briefly. */
const IMAGE_CACHE_CONTROL = 'public, max-age=300';
/** An SVG opened on its own may do nothing but draw itself. */
const IMAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'";

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char]!);

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Signalboard</title>
<style>body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;max-width:720px;margin:48px auto;padding:0 20px;line-height:1.6;color:#1f2933}
.badge{display:inline-block;background:#fff3bf;color:#7c5e10;border-radius:4px;padding:2px 8px;font-size:12px;font-weight:600;letter-spacing:.04em;text-transform:uppercase}
.meta{color:#687076;font-size:14px}h1{line-height:1.25}
@media (prefers-color-scheme: dark){body{background:#1a1b1e;color:#e9ecef}.meta{color:#a6a7ab}}</style></head>
<body>${body}</body></html>`;
}

/** An article id: its owner (a symbol, or `market`), its day and its number that day. */
function parseId(id: string): { owner: string; date: string } | undefined {
  const match = /^(.+)-(\d{4}-\d{2}-\d{2})-(\d+)$/.exec(id);
  return match ? { owner: match[1]!, date: match[2]! } : undefined;
}

/** The simulated article of this id, if it exists and is published; unknown symbols are simply not found. */
async function findArticle(market: CachedMarket, id: string): Promise<NewsArticle | undefined> {
  const parsed = parseId(id);
  if (!parsed || market.source !== 'simulated') return undefined;
  try {
    const articles = parsed.owner === 'market' ? (await market.getMarketNews()).value : (await market.getCompanyNews(parsed.owner, parsed.date, parsed.date)).value;
    return articles.find((candidate) => candidate.id === id);
  } catch (error) {
    if (error instanceof UnknownSymbolError) return undefined;
    throw error;
  }
}

/**
 * The "Read More" page of a simulated article (its url points here), and its image (a chart card,
 * for the articles whose `image` points here). Public, like the app's pages: they show no user data.
 */
export async function simulatedNewsRoutes(app: FastifyInstance, options: { market: CachedMarket }) {
  const { market } = options;

  app.get<{ Params: { id: string } }>('/simulated-news/:id', async (request, reply) => {
    const article = await findArticle(market, request.params.id);
    reply.type('text/html; charset=utf-8');
    if (!article) {
      return reply.status(404).send(page('Article not found', '<p class="badge">Simulated market</p><h1>Article not found</h1><p>This simulated article does not exist or is no longer available.</p>'));
    }
    const when = new Date(article.datetime * 1000).toUTCString();
    return page(
      article.headline,
      `<p class="badge">Simulated market</p><h1>${escapeHtml(article.headline)}</h1>
<p class="meta">${escapeHtml(article.source)} · ${escapeHtml(when)}${article.related ? ` · ${escapeHtml(article.related)}` : ''}</p>
<p>${escapeHtml(article.summary)}</p>
<p class="meta">This article belongs to Signalboard's simulated market: it was generated with the simulated prices and did not happen.</p>`,
    );
  });

  /** The article's chart card: the closes of the stock (the index for market news) through its day. */
  app.get<{ Params: { id: string } }>('/simulated-news/:id/image.svg', async (request, reply) => {
    const id = request.params.id;
    const article = await findArticle(market, id);
    if (!article || !article.image) {
      return reply.status(404).type('text/plain; charset=utf-8').send('Image not found');
    }
    const { owner, date } = parseId(id)!;
    const subject = owner === 'market' ? MARKET_NEWS_INDEX : { symbol: owner, name: (await market.getProfile(owner)).value.description };
    const dayStart = Date.parse(`${date}T00:00:00Z`) / 1000;
    const bars = (await market.getDailyBars(subject.symbol, dayStart - IMAGE_HISTORY_DAYS * 86_400, dayStart)).value;
    const closes = Array.from(bars.close).slice(-NEWS_IMAGE_SESSIONS);
    return reply
      .type('image/svg+xml; charset=utf-8')
      .header('cache-control', IMAGE_CACHE_CONTROL)
      .header('content-security-policy', IMAGE_CSP)
      .send(renderNewsImageSvg({ ticker: subject.symbol, name: subject.name, closes }));
  });
}
