/**
 * Finnhub's free endpoints mapped field by field, from recorded responses (fixtures/finnhub-*.json)
 * shaped as the provider documents them: /news, /company-news, /stock/profile2, /calendar/earnings,
 * /search. Quotes are covered in adapters.test.ts; failures in adapter-errors.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../../test/helpers';
import { UnknownSymbolError } from '../types';
import { createLiveMarketData } from './composite';
import { createFinnhubAdapter, exchangeName } from './finnhub';
import { startRecordedServer, type RecordedServer } from './recorded-server';

let server: RecordedServer;
beforeAll(async () => {
  server = await startRecordedServer();
});
afterAll(async () => server.close());
beforeEach(() => server.requests.splice(0));

const finnhub = () => createFinnhubAdapter({ apiKey: 'fh-key', baseUrl: server.baseUrl, clock: new FakeClock(Date.parse('2025-01-06T16:00:00Z')), sleep: async () => undefined, timeoutMs: 300 });
const query = (index = 0) => new URL(server.requests[index]!.url, server.baseUrl).searchParams;

describe('Finnhub market news (/news)', () => {
  it('maps every field, newest first, asking for the general category', async () => {
    server.on('/news', { fixture: 'finnhub-market-news.json' });
    const news = await finnhub().marketNews();
    expect(query().get('category')).toBe('general');
    expect(news).toEqual([
      {
        id: '7437590',
        headline: 'Oil extends gains as cold weather lifts heating demand',
        summary: '',
        source: 'Reuters',
        category: 'business',
        datetime: 1736175720,
        url: 'https://www.reuters.com/business/energy/oil-extends-gains-2025-01-06/',
        image: '',
        related: '',
      },
      {
        id: '7437566',
        headline: 'Chipmakers lead premarket gains ahead of CES keynotes',
        summary: 'Semiconductor shares rose before the open as investors awaited product announcements in Las Vegas.',
        source: 'MarketWatch',
        category: 'technology',
        datetime: 1736170200,
        url: 'https://www.marketwatch.com/story/chipmakers-lead-premarket-gains-ahead-of-ces-keynotes-2c4c7b1e',
        image: 'https://images.mktw.net/im-90133471/social',
        related: '',
      },
      {
        id: '7437541',
        headline: 'Stock futures rise as investors look ahead to a busy week of economic data',
        summary: "Stock futures rose Monday morning as traders awaited December's jobs report and minutes from the Federal Reserve's latest meeting.",
        source: 'CNBC',
        category: 'top news',
        datetime: 1736164800,
        url: 'https://www.cnbc.com/2025/01/06/stock-market-today-live-updates.html',
        image: 'https://image.cnbcfm.com/api/v1/image/108081016-1736126347143-gettyimages-2190924395-NYSE_FLOOR.jpeg?v=1736126381',
        related: '',
      },
    ]);
    // Unix seconds, not milliseconds: the Monday morning of the recording.
    expect(new Date(news[2]!.datetime * 1000).toISOString()).toBe('2025-01-06T12:00:00.000Z');
  });

  it('keeps only http(s) links: no link drops the article, a bad image becomes ""', async () => {
    const item = (id: number, url: string, image: string) => ({ category: 'top news', datetime: 1736164800 + id, headline: `Headline ${id}`, id, image, related: '', source: 'CNBC', summary: '', url });
    server.on('/news', {
      body: JSON.stringify([
        item(1, 'https://www.cnbc.com/a.html', 'data:image/png;base64,iVBORw0KGgo='),
        item(2, 'javascript:alert(1)', 'https://image.cnbcfm.com/b.jpeg'),
        item(3, '', ''),
        item(4, 'http://www.cnbc.com/d.html', '//image.cnbcfm.com/d.jpeg'),
        item(5, '/relative/e.html', 'https://image.cnbcfm.com/e.jpeg'),
        item(6, 'ftp://files.example.com/f.txt', 'http://image.cnbcfm.com/f.jpeg'),
      ]),
    });
    const news = await finnhub().marketNews();
    expect(news.map((article) => [article.id, article.url, article.image])).toEqual([
      ['4', 'http://www.cnbc.com/d.html', ''],
      ['1', 'https://www.cnbc.com/a.html', ''],
    ]);
  });
});

describe('Finnhub company news (/company-news)', () => {
  it('maps every field, newest first, for the symbol and days asked', async () => {
    server.on('/company-news', { fixture: 'finnhub-company-news-aapl.json' });
    const news = await finnhub().companyNews('AAPL', '2025-01-01', '2025-01-31');
    expect(Object.fromEntries(query())).toEqual({ symbol: 'AAPL', from: '2025-01-01', to: '2025-01-31' });
    expect(news).toEqual([
      { id: '130012400', headline: 'Apple record services profit lifts stock', summary: 'Services growth continued.', source: 'Reuters', category: 'company', datetime: 1735862400, url: 'https://finnhub.io/api/news?id=7a1c', image: '', related: 'AAPL' },
      { id: '130012399', headline: 'Apple shares slide after analyst downgrade', summary: '', source: 'MarketWatch', category: 'company', datetime: 1735776000, url: 'https://finnhub.io/api/news?id=7a1b', image: '', related: 'AAPL' },
      { id: '130012345', headline: 'Apple beats first-quarter expectations', summary: 'Revenue rose on strong iPhone demand.', source: 'Yahoo', category: 'company', datetime: 1735689600, url: 'https://finnhub.io/api/news?id=6fced1b8', image: 'https://example.com/img.jpg', related: 'AAPL' },
    ]);
  });
});

describe('Finnhub company profile (/stock/profile2)', () => {
  it('maps a NASDAQ listing: venue as users know it, Finnhub industry, listing country and currency', async () => {
    server.on('/stock/profile2', { fixture: 'finnhub-profile-aapl.json' });
    expect(await finnhub().profile('AAPL')).toEqual({
      symbol: 'AAPL',
      description: 'Apple Inc',
      market: 'US',
      exchange: 'NASDAQ',
      country: 'United States',
      currency: 'USD',
      assetClass: 'stock',
      industry: 'Technology',
    });
    expect(query().get('symbol')).toBe('AAPL');
    expect(server.requests[0]!.headers['x-finnhub-token']).toBe('fh-key');
  });

  it('reads the listing, not the head office: Shopify on the NYSE is a US listing in USD', async () => {
    server.on('/stock/profile2', { fixture: 'finnhub-profile-shop.json' });
    expect(await finnhub().profile('SHOP')).toMatchObject({ symbol: 'SHOP', description: 'Shopify Inc', market: 'US', exchange: 'NYSE', country: 'United States', currency: 'USD' });
  });

  it('answers an empty profile as an unknown symbol', async () => {
    server.on('/stock/profile2', { body: '{}' });
    await expect(finnhub().profile('ZZZZ')).rejects.toBeInstanceOf(UnknownSymbolError);
  });

  it('adds the GICS sector from the shipped universe through the live market (Finnhub has only its own industry)', async () => {
    server.on('/stock/profile2', (url) => ({ fixture: url.searchParams.get('symbol') === 'AAPL' ? 'finnhub-profile-aapl.json' : 'finnhub-profile-shop.json' }));
    const live = createLiveMarketData({ finnhubApiKey: 'fh', baseUrls: { finnhub: server.baseUrl }, clock: new FakeClock(), sleep: async () => undefined, yahoo: false });
    expect(await live.getProfile('AAPL')).toMatchObject({ sector: 'Information Technology', industry: 'Technology', exchange: 'NASDAQ' });
    // SHOP (the NYSE listing) is not in the universe (SHOP.TO is): no sector rather than a guess.
    expect((await live.getProfile('SHOP')).sector).toBeUndefined();
  });

  it.each([
    ['NASDAQ NMS - GLOBAL MARKET', 'NASDAQ'],
    ['NEW YORK STOCK EXCHANGE, INC.', 'NYSE'],
    ['NYSE ARCA', 'NYSE Arca'],
    ['NYSE MKT LLC', 'NYSE American'],
    ['CBOE BZX U.S. EQUITIES EXCHANGE', 'Cboe'],
    ['TORONTO STOCK EXCHANGE', 'TSX'],
    ['OTC MARKETS ', 'OTC MARKETS'],
  ])('names the venue %j as %j', (raw, name) => {
    expect(exchangeName(raw)).toBe(name);
  });
});

describe('Finnhub earnings calendar (/calendar/earnings)', () => {
  it('maps every field, keeping unknown actuals null and an unknown hour empty', async () => {
    server.on('/calendar/earnings', { fixture: 'finnhub-earnings.json' });
    const events = await finnhub().earnings('2025-01-01', '2025-06-30');
    expect(Object.fromEntries(query())).toEqual({ from: '2025-01-01', to: '2025-06-30' });
    expect(events).toEqual([
      { symbol: 'AAPL', date: '2025-01-30', hour: 'amc', epsActual: 2.4, epsEstimate: 2.35, revenueActual: 124_300_000_000, revenueEstimate: 124_100_000_000, quarter: 1, year: 2025, exchange: '', country: 'United States' },
      { symbol: 'AAPL', date: '2025-05-01', hour: '', epsActual: null, epsEstimate: 1.62, revenueActual: null, revenueEstimate: 94_000_000_000, quarter: 2, year: 2025, exchange: '', country: 'United States' },
    ]);
  });
});

describe('Finnhub symbol search (/search)', () => {
  it('maps US results and drops foreign listings', async () => {
    server.on('/search', { fixture: 'finnhub-search-apple.json' });
    expect(await finnhub().search('apple', 'US')).toEqual([
      { symbol: 'AAPL', description: 'APPLE INC', market: 'US', exchange: 'US', country: 'United States', currency: 'USD', assetClass: 'stock' },
      { symbol: 'APLE', description: 'APPLE HOSPITALITY REIT INC', market: 'US', exchange: 'US', country: 'United States', currency: 'USD', assetClass: 'stock' },
    ]);
    expect(Object.fromEntries(query())).toEqual({ q: 'apple', exchange: 'US' });
  });

  it('keeps only .TO listings on the Toronto market, in CAD', async () => {
    server.on('/search', {
      body: JSON.stringify({
        count: 2,
        result: [
          { description: 'ROYAL BANK OF CANADA', displaySymbol: 'RY.TO', symbol: 'RY.TO', type: 'Common Stock' },
          { description: 'ROYAL BANK OF CANADA', displaySymbol: 'RY', symbol: 'RY', type: 'Common Stock' },
        ],
      }),
    });
    expect(await finnhub().search('royal bank', 'TO')).toEqual([
      { symbol: 'RY.TO', description: 'ROYAL BANK OF CANADA', market: 'TO', exchange: 'TSX', country: 'Canada', currency: 'CAD', assetClass: 'stock' },
    ]);
    expect(query().get('exchange')).toBe('TO');
  });
});
