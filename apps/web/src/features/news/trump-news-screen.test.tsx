import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderScreen } from '../../test/render';
import { NO_TRUMP_NEWS, TrumpNewsScreen } from './trump-news-screen';

const article = (id: string, headline: string, summary: string) => ({
  id,
  headline,
  summary,
  source: 'Reuters',
  category: 'politics',
  url: `https://example.com/${id}`,
  image: '',
  datetime: 1_795_190_400,
  related: '',
});

function mockFetch(bodies: unknown[]) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => new Response(JSON.stringify(bodies.shift()), { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function renderTrump() {
  return renderScreen(
    <QueryClientProvider client={new QueryClient()}>
      <TrumpNewsScreen />
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('TrumpNewsScreen', () => {
  it("keeps the articles mentioning 'trump' and sends them as news_data", async () => {
    const fetchMock = mockFetch([
      [article('1', 'TRUMP signs order', 'Tariffs rise.'), article('2', 'Fed holds', 'No change.'), article('3', 'Chips slide', 'The trump team widens curbs.')],
      { response: 'Summary\nDetails' },
    ]);
    renderTrump();
    const analyze = screen.getByRole('button', { name: 'Analyze And Summarize' });
    expect(analyze).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Get Trump News' }));
    await screen.findByRole('article', { name: 'TRUMP signs order' });
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(['TRUMP signs order', 'Chips slide']);
    await waitFor(() => expect(analyze).toHaveProperty('disabled', false));
    await userEvent.click(analyze);
    expect((await screen.findByTestId('analysis-response')).textContent).toBe('Summary\nDetails');
    const [url, init] = fetchMock.mock.calls[1]!;
    expect(url).toBe('/api/analyze-trump-news');
    expect(JSON.parse(String(init?.body))).toEqual({ news_data: 'TRUMP signs order: Tariffs rise., Chips slide: The trump team widens curbs.' });
  });

  it('says so when nothing mentions Trump and keeps analysing disabled', async () => {
    mockFetch([[article('2', 'Fed holds', 'No change.')]]);
    renderTrump();
    await userEvent.click(screen.getByRole('button', { name: 'Get Trump News' }));
    await screen.findByText(NO_TRUMP_NEWS);
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Analyze And Summarize' })).toHaveProperty('disabled', true);
  });
});
