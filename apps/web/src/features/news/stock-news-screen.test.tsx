import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi, type MockAnswer } from '../../test/mock-api';
import { giveElementsABox, renderScreen } from '../../test/render';
import { StockNewsScreen } from './stock-news-screen';

const FAVORITES = [
  { symbol: 'DIS', description: 'Walt Disney Co.' },
  { symbol: 'KO', description: 'Coca-Cola Co.' },
];
const article = (id: string, headline: string, summary: string) => ({
  id,
  headline,
  summary,
  source: 'Reuters',
  category: 'company',
  url: `https://news.example.test/${id}`,
  image: '',
  datetime: 1_795_190_400,
  related: 'DIS',
});
const NEWS = [article('a', 'Parks grow', 'Attendance up.'), article('b', 'Board meets', ''), article('c', 'Streaming profit', 'Margins widen.')];

function renderNews() {
  return renderScreen(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <StockNewsScreen />
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  giveElementsABox();
  // A local evening: the range is the user's calendar day, whatever UTC says.
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(new Date(2026, 10, 20, 23, 30));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('News By Stock screen', () => {
  it('searches the first favourite with the Daily range, and Weekly with the 7-day range', async () => {
    const api = mockApi({
      'GET get_favorite_stocks': inTurn({ body: FAVORITES }),
      'GET company-news': inTurn({ body: NEWS }, { body: [] }),
    });
    renderNews();
    await waitFor(() => expect(screen.getByLabelText('Favorite Stocks', { selector: 'input' })).toHaveValue('DIS - Walt Disney Co.'));
    expect(screen.getByLabelText('Interval', { selector: 'input' })).toHaveValue('Daily');

    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('3 articles for DIS · 2026-11-19 to 2026-11-20')).toBeInTheDocument();
    expect(api.calls[1]!.input).toBe('/api/company-news?symbol=DIS&from=2026-11-19&to=2026-11-20');
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(['Parks grow', 'Board meets', 'Streaming profit']);

    await userEvent.click(screen.getByLabelText('Interval', { selector: 'input' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Weekly' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No news for DIS in this interval.')).toBeInTheDocument();
    expect(api.calls[2]!.input).toBe('/api/company-news?symbol=DIS&from=2026-11-13&to=2026-11-20');
    expect(screen.getByRole('button', { name: 'AI Analysis & Summary' })).toBeDisabled();
    expect(api.unhandled).toEqual([]);
  });

  it('sends the analysis text, shows Analyzing..., then the error with a Retry, then the response', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let answerFirst!: (answer: MockAnswer) => void;
    const api = mockApi({
      'GET get_favorite_stocks': inTurn({ body: FAVORITES }),
      'GET company-news': inTurn({ body: NEWS }),
      'POST news-analysis': inTurn(
        () => new Promise<MockAnswer>((resolve) => (answerFirst = resolve)),
        { body: { response: 'Tone: positive\n- Parks grow <b>strongly</b>' } },
      ),
    });
    renderNews();
    await waitFor(() => expect(screen.getByLabelText('Favorite Stocks', { selector: 'input' })).toHaveValue('DIS - Walt Disney Co.'));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    await screen.findByText('3 articles for DIS · 2026-11-19 to 2026-11-20');

    await userEvent.click(screen.getByRole('button', { name: 'AI Analysis & Summary' }));
    expect(screen.getByRole('button', { name: 'Analyzing...' })).toBeDisabled();
    expect(api.calls[2]!.body).toEqual({ event_string: 'Stock: DIS, News Data: Parks grow: Attendance up., Streaming profit: Margins widen.' });

    answerFirst({ status: 502, body: { msg: 'The AI provider failed.' } });
    expect(await screen.findByText('The AI provider failed.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'AI Analysis & Summary' })).toBeEnabled();
    expect(error).toHaveBeenCalledWith('Error analyzing news:', expect.any(Error));

    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    const shown = await screen.findByTestId('analysis-response');
    expect(shown.textContent).toBe('Tone: positive\n- Parks grow <b>strongly</b>');
    expect(shown.children).toHaveLength(0);
    expect(screen.queryByText('The AI provider failed.')).not.toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('logs a news failure and offers a Retry', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockApi({
      'GET get_favorite_stocks': inTurn({ body: FAVORITES }),
      'GET company-news': inTurn({ status: 503, body: { msg: 'The market data provider is unavailable.' } }, { body: NEWS }),
    });
    renderNews();
    await waitFor(() => expect(screen.getByLabelText('Favorite Stocks', { selector: 'input' })).toHaveValue('DIS - Walt Disney Co.'));
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('The market data provider is unavailable.')).toBeInTheDocument();
    expect(error).toHaveBeenCalledWith('Error fetching news:', expect.any(Error));
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('3 articles for DIS · 2026-11-19 to 2026-11-20')).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it('without favourites: a WatchList hint, and Search only warns', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const api = mockApi({ 'GET get_favorite_stocks': inTurn({ body: [] }) });
    renderNews();
    expect(await screen.findByRole('link', { name: 'WatchList' })).toHaveAttribute('href', '/dashboard/symbollookup');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(warn).toHaveBeenCalledTimes(1);
    expect(api.calls).toHaveLength(1);
    expect(api.unhandled).toEqual([]);
  });
});
