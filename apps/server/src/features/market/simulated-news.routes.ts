import type { FastifyInstance } from 'fastify';
import type { CachedMarket } from '../../providers/market/cached-market';
import { UnknownSymbolError, type NewsArticle } from '../../providers/market/types';

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

/**
 * The "Read More" page of a simulated article (its url points here): the article, plainly marked as
 * simulated. Public, like the app's pages: it shows no user data.
 */
export async function simulatedNewsRoutes(app: FastifyInstance, options: { market: CachedMarket }) {
  app.get<{ Params: { id: string } }>('/simulated-news/:id', async (request, reply) => {
    const id = request.params.id;
    const match = /^(.+)-(\d{4}-\d{2}-\d{2})-(\d+)$/.exec(id);
    let article: NewsArticle | undefined;
    if (match && options.market.source === 'simulated') {
      const [, owner, date] = match;
      try {
        const articles = owner === 'market' ? (await options.market.getMarketNews()).value : (await options.market.getCompanyNews(owner!, date!, date!)).value;
        article = articles.find((candidate) => candidate.id === id);
      } catch (error) {
        if (!(error instanceof UnknownSymbolError)) throw error;
      }
    }
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
}
