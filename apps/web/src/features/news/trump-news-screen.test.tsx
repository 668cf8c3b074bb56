import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
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
    const api = mockApi({
      'GET market-news': inTurn({ body: [article('1', 'TRUMP signs order', 'Tariffs rise.'), article('2', 'Fed holds', 'No change.'), article('3', 'Chips slide', 'The trump team widens curbs.')] }),
      'POST analyze-trump-news': inTurn({ body: { response: 'Summary\nDetails' } }),
    });
    renderTrump();
    const analyze = screen.getByRole('button', { name: 'Analyze And Summarize' });
    expect(analyze).toHaveProperty('disabled', true);
    await userEvent.click(screen.getByRole('button', { name: 'Get Trump News' }));
    await screen.findByRole('article', { name: 'TRUMP signs order' });
    expect(screen.getAllByRole('article').map((card) => card.getAttribute('aria-label'))).toEqual(['TRUMP signs order', 'Chips slide']);
    await waitFor(() => expect(analyze).toHaveProperty('disabled', false));
    await userEvent.click(analyze);
    expect((await screen.findByTestId('analysis-response')).textContent).toBe('Summary\nDetails');
    const call = api.calls[1]!;
    expect(call.input).toBe('/api/analyze-trump-news');
    expect(call.body).toEqual({ news_data: 'TRUMP signs order: Tariffs rise., Chips slide: The trump team widens curbs.' });
    expect(api.unhandled).toEqual([]);
  });

  it('says so when nothing mentions Trump and keeps analysing disabled', async () => {
    const api = mockApi({ 'GET market-news': inTurn({ body: [article('2', 'Fed holds', 'No change.')] }) });
    renderTrump();
    await userEvent.click(screen.getByRole('button', { name: 'Get Trump News' }));
    await screen.findByText(NO_TRUMP_NEWS);
    expect(screen.queryAllByRole('article')).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Analyze And Summarize' })).toHaveProperty('disabled', true);
    expect(api.unhandled).toEqual([]);
  });
});
