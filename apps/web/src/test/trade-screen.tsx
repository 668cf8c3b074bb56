/**
 * What the trade screens' tests share (options2, drop, layered, swing): the screen rendered on the
 * mock API with a fresh query cache, the routes every trade screen calls, the saved-alert calls,
 * reading the cards by the list's name, the held and failing answers of the loading and error
 * states, and capturing the CSV a screen downloads.
 */
import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { afterEach, expect, it, vi } from 'vitest';
import type { TrackRecord } from '@signalboard/core';
import type { ListEngine } from '../lib/api/trade-ideas';
import { resetChartCalls } from './chart-mock';
import { mockApi, type MockAnswer } from './mock-api';
import { renderScreen } from './render';
import { replay } from './trade-fixtures';

type Routes = Parameters<typeof mockApi>[0];
type Route = Routes[string];

/** A local time as ISO, so the tests hold in any zone. */
export const local = (y: number, m: number, d: number, h = 12, min = 0, s = 0) => new Date(y, m - 1, d, h, min, s).toISOString();

/** After each test: the mocked fetch, the notifications and the chart's record go. */
export function cleanUpAfterEach(): void {
  afterEach(() => {
    vi.unstubAllGlobals();
    notifications.clean();
    resetChartCalls();
  });
}

/** Renders the screen on the mock API (these routes) with a fresh query cache that does not retry; answers the mock. */
export function renderTradeScreen(element: ReactElement, routes: Routes) {
  const api = mockApi(routes);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  renderScreen(<QueryClientProvider client={client}>{element}</QueryClientProvider>);
  return api;
}

/** The calls every trade screen makes: its list (at `listPath`), the replay status (done) and the track record. */
export function ideaScreenRoutes(engine: ListEngine, listPath: string, list: Route, record: TrackRecord): Routes {
  return {
    [`GET ${listPath}`]: list,
    'GET trade_ideas/replay_status': { body: [replay({ engine })] },
    [`GET trade_ideas/${engine}/track_record`]: { body: record },
  };
}

/**
 * The saved-alert calls: GET `load` answers `loaded`; POST `save` records each body in `posted` and
 * answers it saved as sent (`savedOf` reads the saved set out of the body), nothing dropped.
 */
export function savedAlertRoutes<Body>(load: string, loaded: unknown, save: string, savedOf: (body: Body) => unknown) {
  const posted: Body[] = [];
  const routes: Routes = {
    [`GET ${load}`]: { body: loaded },
    [`POST ${save}`]: (_url, init) => {
      const body = JSON.parse(String(init?.body)) as Body;
      posted.push(body);
      return { body: { msg: 'saved', saved: savedOf(body), dropped: [] } };
    },
  };
  return { posted, routes };
}

/** A list call that answers by its status filter, as the server does (no status: every row). */
export function answerByStatus(rows: ReadonlyArray<{ Status: string }>, all = 'active,successful,failed') {
  return (url: URL): MockAnswer => {
    const wanted = (url.searchParams.get('status') ?? all).split(',');
    return { body: rows.filter((row) => wanted.includes(row.Status.toLowerCase())) };
  };
}

/**
 * A list call as the server answers it: its status and type filters (a type may carry the one
 * status wanted of it, 'L:deactivated', 'drop:failed'; entries are or-ed, and and-ed with the
 * status), newest first (`createdOf`), `pageSize` rows a page and the next one's cursor in
 * X-Next-Cursor (the screens ask for 500; a smaller page stands for a longer list).
 */
export function answerPaged<Row extends { Status: string }>(rows: readonly Row[], typesOf: (row: Row) => string[], createdOf: (row: Row) => string, pageSize = 500) {
  return (url: URL): MockAnswer => {
    const statuses = url.searchParams.get('status')?.split(',');
    const types = url.searchParams.get('type')?.split(',');
    const matching = rows
      .filter((row) => {
        const status = row.Status.toLowerCase();
        if (statuses && !statuses.includes(status)) return false;
        return !types || types.some((entry) => typesOf(row).includes(entry.split(':')[0]!) && [undefined, status].includes(entry.split(':')[1]));
      })
      .sort((a, b) => createdOf(b).localeCompare(createdOf(a)));
    const start = Number(url.searchParams.get('cursor') ?? 0);
    const next = start + pageSize < matching.length ? { 'X-Next-Cursor': String(start + pageSize) } : undefined;
    return { body: matching.slice(start, start + pageSize), ...(next ? { headers: next } : {}) };
  };
}

/** A route that holds its answer until the test gives it (`answer`): the loading state stays on screen meanwhile. */
export function heldAnswer() {
  let resolve: ((value: MockAnswer) => void) | undefined;
  return {
    route: () => new Promise<MockAnswer>((done) => (resolve = done)),
    answer: (value: MockAnswer) => resolve!(value),
  };
}

/** A route that fails with `failure` until `recover()`, then answers as `then`. */
export function failingUntilRecovered(failure: MockAnswer, then: (url: URL, init: RequestInit | undefined) => MockAnswer | Promise<MockAnswer>) {
  let failing = true;
  return {
    route: (url: URL, init: RequestInit | undefined) => (failing ? failure : then(url, init)),
    recover: () => void (failing = false),
  };
}

/** Presses Retry in the list's failed-load message. */
export async function retryListLoad(): Promise<void> {
  const alert = screen.getByText('The trades could not be loaded').closest('[role="alert"]') as HTMLElement;
  await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
}

/** Reading the cards of the list named `listName`, as a person does: by each card's symbol heading. */
export function cardQueries(listName: string) {
  const cardList = () => screen.getByRole('list', { name: listName });
  const card = (symbol: string) => within(cardList()).getByRole('article', { name: symbol });
  return {
    cardList,
    card,
    cardSymbols: () => within(cardList()).getAllByRole('article').map((article) => within(article).getByRole('heading').textContent),
    /** A card's figure: the value after its label. */
    field: (symbol: string, label: string) => within(card(symbol)).getByText(label, { selector: 'p' }).nextElementSibling as HTMLElement,
  };
}

export const box = (name: string) => screen.getByRole('checkbox', { name });
export const saveButton = () => screen.getByRole('button', { name: 'Save Alerts' });

/** Presses Save Alerts once the saved alerts have loaded (the button waits for them). */
export async function saveAlerts(): Promise<void> {
  await waitFor(() => expect(saveButton()).toBeEnabled());
  await userEvent.click(saveButton());
}

/** Captures what 'Export CSV' downloads (jsdom has no object URLs): the click on the link and the file's lines. */
export function captureDownloads() {
  const blobs: Blob[] = [];
  Object.defineProperty(URL, 'createObjectURL', { configurable: true, value: (blob: Blob) => (blobs.push(blob), 'blob:download') });
  Object.defineProperty(URL, 'revokeObjectURL', { configurable: true, value: () => undefined });
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  return { click, blob: () => blobs[0]!, lines: async () => (await blobs[0]!.text()).split('\r\n') };
}

/**
 * The list states every trade screen shows (IdeaListSection), as tests in the calling describe: the
 * screen's loading message, then its empty sentence (Export CSV off); a failed load with its reason
 * and Retry, which loads the cards; and the replay's progress instead of the empty sentence while
 * the engine's history replay runs (another engine's finished replay does not count).
 */
export function itShowsTheListStates({
  setup,
  engine,
  listPath,
  listName,
  loading,
  empty,
  recovered,
  shown,
}: {
  setup: (routes: Routes) => unknown;
  engine: ListEngine;
  listPath: string;
  listName: string;
  loading: string;
  empty: string;
  /** The list call's answer once it works again, and the symbols then shown. */
  recovered: Route;
  shown: string[];
}): void {
  it('shows its loading message, then the empty sentence', async () => {
    const list = heldAnswer();
    setup({ [`GET ${listPath}`]: list.route });
    expect(await screen.findByText(loading)).toBeInTheDocument();
    list.answer({ body: [] });
    expect(await screen.findByText(empty)).toBeInTheDocument();
    expect(screen.queryByText(loading)).toBeNull();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('reports a failed load with its reason and Retry, which loads again', async () => {
    const answer = typeof recovered === 'function' ? recovered : () => recovered;
    const list = failingUntilRecovered({ status: 503, body: { msg: 'Market data is unavailable.' } }, answer);
    setup({ [`GET ${listPath}`]: list.route });
    expect(await screen.findByText('Market data is unavailable.')).toBeInTheDocument();
    list.recover();
    await retryListLoad();
    await screen.findByRole('list', { name: listName });
    expect(cardQueries(listName).cardSymbols()).toEqual(shown);
  });

  it('shows the replay’s progress instead of an empty list while the history replay runs', async () => {
    const other: ListEngine = engine === 'swing' ? 'layered' : 'swing';
    setup({
      [`GET ${listPath}`]: { body: [] },
      'GET trade_ideas/replay_status': { body: [replay({ engine: other }), replay({ engine, state: 'running', sessionsDone: 120, sessionsTotal: 504, finishedAt: null })] },
    });
    expect(await screen.findByRole('region', { name: 'Replay progress' })).toHaveTextContent('Replaying history: 120 of 504 sessions');
    expect(screen.queryByText(empty)).toBeNull();
  });

  it('says when the replay runs on imported prices, and names the rules with the data', async () => {
    setup({
      [`GET ${listPath}`]: { body: [] },
      'GET trade_ideas/replay_status': { body: [replay({ engine, ruleVersion: `${engine}@1.0.0+data.1a2b3c4d`, state: 'running', sessionsDone: 40, sessionsTotal: 740, finishedAt: null })] },
    });
    const progress = await screen.findByRole('region', { name: 'Replay progress' });
    expect(progress).toHaveTextContent('Replaying history on the imported prices: 40 of 740 sessions');
    expect(progress).toHaveTextContent(`The rules (${engine}@1.0.0 on imported prices (data 1a2b3c4d)) run over the stored history once`);
    expect(progress).toHaveTextContent('the ideas replayed on the earlier prices are kept apart and no longer listed');
  });
}
