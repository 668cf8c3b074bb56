import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { TONE } from '../../theme';
import {
  EARNINGS_FAILED,
  EARNINGS_FAILED_LOG,
  FAVORITES_FAILED_LOG,
  INDICATORS_FAILED,
  NO_EARNINGS,
  NO_INDICATORS,
  NO_OVERALL,
  NO_SECTOR_NEWS,
  NO_SECTORS,
  NO_SUMMARY,
  OVERALL_FAILED,
  OVERVIEW_FAILED,
  SECTOR_NEWS_UNPARSEABLE,
  SECTORS_FAILED,
  SOME_DATA_FAILED,
  UNEXPECTED_ERROR,
} from './dashboard-messages';
import {
  DASHBOARD_PATHS,
  DEFAULT_ANSWERS,
  LONG_SUMMARY,
  NOW,
  OVERALL,
  OVERVIEW,
  TODAY,
  type DashboardPath,
} from './dashboard-fixtures';
import { MarketDashboardScreen } from './dashboard-screen';

type Answer = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;
type Answers = Partial<Record<DashboardPath, Answer | Answer[]>>;

/**
 * The mock API on the dashboard's calls (earnings_calendar is a POST, the others GETs): a path's
 * answer is the override given (one answer, or one per call in turn, the last repeated), else the
 * fixture. Calls are recorded in order.
 */
function mockDashboard(overrides: Answers = {}) {
  return mockApi(
    Object.fromEntries(
      DASHBOARD_PATHS.map((path) => {
        const given = overrides[path];
        const queue = given === undefined ? [] : Array.isArray(given) ? [...given] : [given];
        const answer = () => (queue.length > 1 ? queue.shift()! : (queue[0] ?? { status: 200, body: DEFAULT_ANSWERS[path] }));
        return [`${path === 'earnings_calendar' ? 'POST' : 'GET'} ${path}`, answer];
      }),
    ),
  );
}

const callsTo = (api: ReturnType<typeof mockApi>, path: DashboardPath) => api.calls.filter((call) => call.input === `/api/${path}`);

function renderDashboard(client = new QueryClient({ defaultOptions: { queries: { retry: false } } })) {
  return renderScreen(
    <QueryClientProvider client={client}>
      <MarketDashboardScreen />
    </QueryClientProvider>,
  );
}

/** Gains and losses are drawn in the theme's gain and loss text tokens. */
const GAIN = `var(--mantine-color-${TONE.gain}-text)`;
const LOSS = `var(--mantine-color-${TONE.loss}-text)`;
const section = (name: string) => screen.getByRole('region', { name });
const findSection = (name: string) => screen.findByRole('region', { name });

/** Waits until every part has loaded (or failed): no loading skeleton left. */
async function settled() {
  await waitFor(() => expect(screen.queryAllByRole('status', { name: /^Loading/ })).toHaveLength(0));
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(NOW);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Market Dashboard', () => {
  it('starts all five loads at once, each part with its own loading state', async () => {
    const releases: Array<() => void> = [];
    const held = (path: DashboardPath): Answer =>
      new Promise((resolve) => releases.push(() => resolve({ status: 200, body: DEFAULT_ANSWERS[path] })));
    const api = mockDashboard(Object.fromEntries(DASHBOARD_PATHS.map((path) => [path, held(path)])) as Answers);
    renderDashboard();

    expect(screen.getAllByRole('heading', { level: 1 }).map((heading) => heading.textContent)).toEqual(['Market Dashboard']);
    await waitFor(() => expect(api.calls).toHaveLength(DASHBOARD_PATHS.length));
    expect(api.calls.map((call) => call.input).sort()).toEqual(DASHBOARD_PATHS.map((path) => `/api/${path}`).sort());
    for (const label of [
      'Loading the market overview',
      'Loading overall market sentiment',
      "Loading today's earnings",
      'Loading sector sentiments',
      'Loading economic indicators',
    ]) {
      expect(screen.getByRole('status', { name: label })).toBeInTheDocument();
    }

    releases.forEach((release) => release());
    await settled();
    expect(within(section('Overall Market Sentiment')).getByText('Stocks rose. Tech led gains.')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows the market status, the index strip and the sector heatmap', async () => {
    const api = mockDashboard();
    renderDashboard();
    const overview = await findSection('Market Overview');
    await within(overview).findByText('Open');
    expect(within(overview).getByText(/^Closes/).textContent).toBe('Closes 4:00 PM ET');

    const indices = within(overview).getAllByRole('listitem', { name: /SPY|BTC/ });
    expect(indices.map((item) => item.getAttribute('aria-label'))).toEqual([
      'SPY SPDR S&P 500 ETF: 598.12 USD, +3.40 (+0.57%)',
      'BTC Bitcoin: 97,250.50 USD, \u22121,210.75 (\u22121.23%)',
    ]);
    const up = within(indices[0]!).getByText('+3.40').parentElement!;
    const down = within(indices[1]!).getByText('\u22121,210.75').parentElement!;
    expect([up.textContent, down.textContent]).toEqual(['+3.40 (+0.57%)', '\u22121,210.75 (\u22121.23%)']);
    expect(up).toHaveStyle({ color: GAIN });
    expect(down).toHaveStyle({ color: LOSS });

    const heatmap = within(overview).getByRole('list', { name: 'Sector heatmap' });
    const tiles = within(heatmap).getAllByRole('listitem');
    expect(tiles).toHaveLength(11);
    // Best to worst, each named with its sector and signed move.
    expect(tiles[0]).toHaveAccessibleName('Information Technology +1.87% (XLK)');
    expect(tiles[10]).toHaveAccessibleName('Energy \u22122.35% (XLE)');
    expect(within(heatmap).getByRole('listitem', { name: 'Health Care 0.00% (XLV)' })).toBeInTheDocument();
    expect(tiles[0]!.getAttribute('style')).toContain('green');
    expect(tiles[10]!.getAttribute('style')).toContain('red');
    expect(api.unhandled).toEqual([]);
  });

  it('says which index and sector prices are an imported file\'s last close', async () => {
    const body = { ...OVERVIEW, indices: OVERVIEW.indices.map((quote) => (quote.symbol === 'SPY' ? { ...quote, imported: true as const } : quote)), sectors: OVERVIEW.sectors.map((sector) => (sector.etf === 'XLK' ? { ...sector, imported: true as const } : sector)) };
    const api = mockDashboard({ market_overview: { status: 200, body } });
    renderDashboard();
    const overview = await findSection('Market Overview');
    const spy = await within(overview).findByRole('listitem', { name: 'SPY SPDR S&P 500 ETF: 598.12 USD, +3.40 (+0.57%), imported prices' });
    expect(within(spy).getByText('Imported')).toBeInTheDocument();
    expect(within(overview).getByRole('listitem', { name: /^BTC/ })).not.toHaveTextContent('Imported');
    expect(within(overview).getByRole('listitem', { name: 'Information Technology +1.87% (XLK, imported prices)' })).toHaveTextContent('XLK · Imported');
    expect(api.unhandled).toEqual([]);
  });

  it('says when the market opens next while it is closed', async () => {
    const api = mockDashboard({ market_overview: { status: 200, body: { ...OVERVIEW, market: { phase: 'closed', nextChange: '2026-11-23T14:30:00.000Z' } } } });
    renderDashboard();
    const overview = await findSection('Market Overview');
    expect(await within(overview).findByText('Closed')).toBeInTheDocument();
    expect(within(overview).getByText('Market status:')).toBeInTheDocument();
    expect(within(overview).getByText(/^Opens/).textContent).toBe('Opens Mon 9:30 AM ET');
    expect(api.unhandled).toEqual([]);
  });

  it("shows the latest overall summary as bullets of 2 sentences, with when it was written", async () => {
    const api = mockDashboard();
    renderDashboard();
    const overall = await findSection('Overall Market Sentiment');
    const bullets = await within(overall).findByRole('list', { name: 'Market Summary' });
    expect(within(bullets).getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'Stocks rose. Tech led gains.',
      'Bonds were flat. Oil fell sharply.',
      'The Fed meets next week.',
    ]);
    expect(within(overall).getByRole('heading', { name: 'Market Summary' })).toBeInTheDocument();
    expect(within(overall).getByText(/^Last updated:/).textContent).toBe('Last updated: Nov 20, 2026, 10:00:00 AM · from 12 news items');
    expect(within(overall).queryByText('An older summary.')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it("lists today's releases of favourites only, asking for today's date as start and end", async () => {
    const api = mockDashboard();
    renderDashboard();
    const earnings = await findSection("Today's Earnings (Favorites)");
    const table = await within(earnings).findByRole('table');
    const rows = within(table)
      .getAllByRole('row')
      .map((row) => within(row).queryAllByRole('cell').map((cell) => cell.textContent));
    expect(within(table).getAllByRole('columnheader').map((th) => th.textContent)).toEqual(['Symbol', 'EPS Estimate', 'EPS Actual', 'Surprise']);
    // Symbol with its time of day; the actual with its difference from the estimate.
    expect(rows.slice(1)).toEqual([
      ['MSFTPre Market', '2.80', '3.10+0.30', '+10.71%'],
      ['AAPLAfter Hours', '1.90', 'N/A', 'N/A'],
    ]);
    expect(within(table).getByText('+10.71%')).toHaveStyle({ color: GAIN });
    expect(within(table).queryByText('ZZZZ')).not.toBeInTheDocument();

    const [call] = callsTo(api, 'earnings_calendar');
    expect(call!.method).toBe('POST');
    expect(call!.body).toEqual({ start_date: TODAY, end_date: TODAY });
    expect(api.unhandled).toEqual([]);
  });

  it('shows each sector in an accordion: summary bullets, the top 3 news and an expand control for the rest', async () => {
    const api = mockDashboard();
    renderDashboard();
    const sectors = await findSection('Sector Sentiment & News');
    const energy = await within(sectors).findByRole('button', { name: /^Energy/ });
    expect(energy).toHaveAccessibleName('Energy News tone: Negative \u22120.35 as of 10:15 AM');
    await userEvent.click(energy);
    const panel = await screen.findByRole('region', { name: /^Energy/ });

    const summary = within(panel).getByRole('list', { name: 'Energy summary' });
    expect(within(summary).getAllByRole('listitem').map((item) => item.textContent)).toEqual(['Oil slid. Refiners gained.', 'Gas was flat.']);
    const top = within(panel).getByRole('list', { name: 'Energy news' });
    expect(within(top).getAllByRole('listitem')).toHaveLength(3);

    const link = within(top).getByRole('link', { name: 'Oil slides on supply' });
    expect(link).toHaveAttribute('href', 'https://news.example.com/oil');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    // Not http(s): the title is plain text, and no image.
    expect(within(top).getByText('Unsafe link story').closest('a')).toBeNull();
    expect(within(top).queryByRole('link', { name: 'Unsafe link story' })).not.toBeInTheDocument();
    const images = top.querySelectorAll('img');
    expect(images).toHaveLength(1);
    expect(images[0]).toHaveAttribute('src', 'https://img.example.com/oil.jpg');
    // Summaries cut at 100 characters.
    expect(LONG_SUMMARY.length).toBeGreaterThan(100);
    expect(within(top).getByText(`${LONG_SUMMARY.slice(0, 100).trimEnd()}…`)).toBeInTheDocument();
    expect(within(top).getByText('Crude fell 3%.')).toBeInTheDocument();

    const more = within(panel).getByRole('button', { name: 'Show 2 more' });
    expect(more).toHaveAttribute('aria-expanded', 'false');
    expect(within(panel).queryByRole('link', { name: 'Gas prices steady' })).not.toBeInTheDocument();
    await userEvent.click(more);
    const less = within(panel).getByRole('button', { name: 'Show less' });
    expect(less).toHaveAttribute('aria-expanded', 'true');
    const rest = within(panel).getByRole('list', { name: 'More Energy news' });
    expect(within(rest).getAllByRole('listitem')).toHaveLength(2);
    expect(within(rest).getByRole('link', { name: 'Solar names jump' })).toHaveAttribute('href', 'http://news.example.com/solar');
    await userEvent.click(less);
    expect(within(panel).getByRole('button', { name: 'Show 2 more' })).toHaveAttribute('aria-expanded', 'false');
    expect(within(panel).queryByRole('list', { name: 'More Energy news' })).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('says when a sector has no news, unreadable news or no summary', async () => {
    const api = mockDashboard();
    renderDashboard();
    const sectors = await findSection('Sector Sentiment & News');
    await userEvent.click(await within(sectors).findByRole('button', { name: /^Materials/ }));
    const materials = await screen.findByRole('region', { name: /^Materials/ });
    expect(within(materials).getByText(NO_SECTOR_NEWS)).toBeInTheDocument();
    expect(within(materials).getByText('A quiet day.')).toBeInTheDocument();

    await userEvent.click(within(sectors).getByRole('button', { name: /^Utilities/ }));
    const utilities = await screen.findByRole('region', { name: /^Utilities/ });
    expect(within(utilities).getByText(SECTOR_NEWS_UNPARSEABLE)).toBeInTheDocument();
    expect(within(utilities).getByText(NO_SUMMARY)).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('shows each economic indicator as a card with its last 2 values and the change', async () => {
    const api = mockDashboard();
    renderDashboard();
    const indicators = await findSection('Key Economic Indicators');
    const unemployment = await within(indicators).findByRole('article', { name: 'Unemployment Rate' });
    expect(within(unemployment).getByText('UNRATE')).toBeInTheDocument();
    expect(within(unemployment).getByText('Monthly · Percent')).toBeInTheDocument();
    expect(within(unemployment).getByText('Latest ·').textContent).toBe('Latest · October 2026');
    expect(within(unemployment).getByText('4.2%')).toBeInTheDocument();
    expect(within(unemployment).getByText('Previous ·').textContent).toBe('Previous · September 2026');
    expect(within(unemployment).getByText('4.1%')).toBeInTheDocument();
    expect(within(unemployment).getByText('+0.1')).toHaveStyle({ color: GAIN });
    // Only the last 2 entries.
    expect(within(unemployment).queryByText('4%')).not.toBeInTheDocument();
    expect(within(unemployment).getByText('Unemployment ticked up to 4.2%.')).toBeInTheDocument();
    expect(within(unemployment).getByText(/^as of/).textContent).toBe('as of 8:00 AM');

    const cpi = within(indicators).getByRole('article', { name: 'Consumer Price Index' });
    expect(within(cpi).getByText('\u22120.75')).toHaveStyle({ color: LOSS });
    expect(within(cpi).getByText(NO_SUMMARY)).toBeInTheDocument();
    // The section's "as of" is its latest update.
    expect(within(indicators).getAllByText(/^as of/)[0]!.textContent).toBe('as of 8:30 AM');
    expect(api.unhandled).toEqual([]);
  });

  it('shows the empty state of every part', async () => {
    const api = mockDashboard({
      all_overall_sentiment: { status: 200, body: [] },
      earnings_calendar: { status: 200, body: [] },
      sector_sentiment_scanner: { status: 200, body: [] },
      top_economic_indicators: { status: 200, body: [] },
    });
    renderDashboard();
    await settled();
    expect(within(section('Overall Market Sentiment')).getByText(NO_OVERALL)).toBeInTheDocument();
    expect(within(section("Today's Earnings (Favorites)")).getByText(NO_EARNINGS)).toBeInTheDocument();
    expect(within(section('Sector Sentiment & News')).getByText(NO_SECTORS)).toBeInTheDocument();
    expect(within(section('Key Economic Indicators')).getByText(NO_INDICATORS)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it("says 'No summary available.' for an overall row without a summary, and no earnings when none is a favourite", async () => {
    const api = mockDashboard({
      all_overall_sentiment: { status: 200, body: [{ ...OVERALL[0], GptSummary: '' }] },
      get_favorite_stocks: { status: 200, body: [{ symbol: 'NVDA', description: 'NVIDIA' }] },
    });
    renderDashboard();
    await settled();
    const overall = section('Overall Market Sentiment');
    expect(within(overall).getByText(NO_SUMMARY)).toBeInTheDocument();
    expect(within(overall).getByRole('heading', { name: 'Market Summary' })).toBeInTheDocument();
    expect(within(section("Today's Earnings (Favorites)")).getByText(NO_EARNINGS)).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it.each([
    ['top_economic_indicators', 'Key Economic Indicators', INDICATORS_FAILED, INDICATORS_FAILED],
    ['sector_sentiment_scanner', 'Sector Sentiment & News', SECTORS_FAILED, SECTORS_FAILED],
    ['all_overall_sentiment', 'Overall Market Sentiment', OVERALL_FAILED, OVERALL_FAILED],
    ['get_favorite_stocks', "Today's Earnings (Favorites)", EARNINGS_FAILED, FAVORITES_FAILED_LOG],
    ['earnings_calendar', "Today's Earnings (Favorites)", EARNINGS_FAILED, EARNINGS_FAILED_LOG],
  ] as const)('a failed %s shows its message, the alert on top and the other parts', async (path, title, message, log) => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockDashboard({ [path]: { status: 503, body: { msg: 'Upstream is down.' } } });
    renderDashboard();
    await settled();

    const failed = section(title);
    expect(within(failed).getByText(message)).toBeInTheDocument();
    expect(within(failed).getByText('Upstream is down.')).toBeInTheDocument();
    expect(within(failed).queryByRole('table')).not.toBeInTheDocument();
    expect(within(failed).queryByRole('article')).not.toBeInTheDocument();
    expect(screen.getByText(SOME_DATA_FAILED)).toBeInTheDocument();
    expect(screen.queryByText(UNEXPECTED_ERROR)).not.toBeInTheDocument();
    expect(error).toHaveBeenCalledWith(log, expect.objectContaining({ message: 'Upstream is down.' }));

    // The others still show their data.
    if (title !== 'Overall Market Sentiment') expect(within(section('Overall Market Sentiment')).getByText('The Fed meets next week.')).toBeInTheDocument();
    if (title !== 'Key Economic Indicators') expect(within(section('Key Economic Indicators')).getByRole('article', { name: 'Unemployment Rate' })).toBeInTheDocument();
    if (title !== 'Sector Sentiment & News') expect(within(section('Sector Sentiment & News')).getByRole('button', { name: /^Energy/ })).toBeInTheDocument();
    if (title !== "Today's Earnings (Favorites)") expect(within(section("Today's Earnings (Favorites)")).getByRole('table')).toBeInTheDocument();
    expect(within(section('Market Overview')).getByText('Open')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('Retry in the alert loads only the failed parts again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockDashboard({
      top_economic_indicators: [{ status: 500, body: { msg: 'Boom.' } }, { status: 200, body: DEFAULT_ANSWERS.top_economic_indicators }],
      earnings_calendar: [{ status: 502, body: { msg: 'Bad gateway.' } }, { status: 200, body: DEFAULT_ANSWERS.earnings_calendar }],
    });
    renderDashboard();
    await settled();
    expect(screen.getByText(INDICATORS_FAILED)).toBeInTheDocument();
    expect(screen.getByText(EARNINGS_FAILED)).toBeInTheDocument();
    const calls = api.calls.length;

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await within(section('Key Economic Indicators')).findByRole('article', { name: 'Unemployment Rate' })).toBeInTheDocument();
    expect(await within(section("Today's Earnings (Favorites)")).findByRole('table')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText(SOME_DATA_FAILED)).not.toBeInTheDocument());
    expect(api.calls.slice(calls).map((call) => call.input).sort()).toEqual(['/api/earnings_calendar', '/api/top_economic_indicators']);
    expect(api.unhandled).toEqual([]);
  });

  it('a part can be retried on its own', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockDashboard({ all_overall_sentiment: [{ status: 500, body: { msg: 'Boom.' } }, { status: 200, body: OVERALL }] });
    renderDashboard();
    const overall = await findSection('Overall Market Sentiment');
    await userEvent.click(await within(overall).findByRole('button', { name: 'Retry overall market sentiment' }));
    expect(await within(overall).findByText('Stocks rose. Tech led gains.')).toBeInTheDocument();
    expect(screen.queryByText(SOME_DATA_FAILED)).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('an answer that cannot be processed gives the unexpected-error message', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockDashboard({ sector_sentiment_scanner: { status: 200, body: { rows: 'not a list' } } });
    renderDashboard();
    await settled();
    expect(screen.getByText(UNEXPECTED_ERROR)).toBeInTheDocument();
    expect(screen.queryByText(SOME_DATA_FAILED)).not.toBeInTheDocument();
    expect(within(section('Sector Sentiment & News')).getByText(SECTORS_FAILED)).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith(SECTORS_FAILED, expect.any(Error));
    expect(within(section('Key Economic Indicators')).getByRole('article', { name: 'Unemployment Rate' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('a failed market overview shows a short message with Retry, not the alert', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockDashboard({ market_overview: [{ status: 503, body: { msg: 'Quotes unavailable.' } }, { status: 200, body: DEFAULT_ANSWERS.market_overview }] });
    renderDashboard();
    await settled();
    const overview = section('Market Overview');
    expect(within(overview).getByText(OVERVIEW_FAILED)).toBeInTheDocument();
    expect(screen.queryByText(SOME_DATA_FAILED)).not.toBeInTheDocument();
    expect(screen.queryByText(UNEXPECTED_ERROR)).not.toBeInTheDocument();
    await userEvent.click(within(overview).getByRole('button', { name: 'Retry market overview' }));
    expect(await within(overview).findByRole('list', { name: 'Sector heatmap' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('a background refresh that fails keeps the summary shown (its "as of" tells its age)', async () => {
    const failure = { status: 503, body: { msg: 'The database is busy.' } };
    const api = mockDashboard({ all_overall_sentiment: [{ status: 200, body: OVERALL }, failure] });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    renderDashboard(client);
    const overall = await findSection('Overall Market Sentiment');
    await within(overall).findByRole('list', { name: 'Market Summary' });
    await client.refetchQueries({ queryKey: ['dashboard', 'overall-sentiment'] });
    await waitFor(() => expect(callsTo(api, 'all_overall_sentiment')).toHaveLength(2));
    expect(within(overall).getByRole('list', { name: 'Market Summary' })).toBeInTheDocument();
    expect(screen.queryByText(OVERALL_FAILED)).not.toBeInTheDocument();
    expect(screen.queryByText(SOME_DATA_FAILED)).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });
});
