import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { GeneralNewsScreen, NO_ARTICLES } from './general-news-screen';

const article = (id: string, headline: string, summary: string) => ({
  id,
  headline,
  summary,
  source: 'Reuters',
  category: 'top news',
  url: `https://example.com/${id}`,
  image: '',
  datetime: 1_795_190_400,
  related: '',
});
const NEWS = [article('1', 'Fed holds rates', 'Inflation cools.'), article('2', 'Oil jumps', 'OPEC cuts output.')];

function renderNews() {
  return renderScreen(
    <QueryClientProvider client={new QueryClient()}>
      <GeneralNewsScreen />
    </QueryClientProvider>,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('GeneralNewsScreen', () => {
  it("sends the 'headline: summary' items joined with ', ' and shows the response under 'Response:'", async () => {
    const api = mockApi({
      'GET market-news': inTurn({ body: NEWS }),
      'POST news-analysis': inTurn({ body: { response: 'Line one\nLine two' } }),
    });
    renderNews();
    const analyze = screen.getByRole('button', { name: 'Analyze And Summarize News' });
    expect(analyze).toHaveProperty('disabled', true);

    await userEvent.click(screen.getByRole('button', { name: 'Get Geo-Political News' }));
    await screen.findByRole('article', { name: 'Fed holds rates' });
    expect(screen.getAllByRole('article')).toHaveLength(2);
    await waitFor(() => expect(analyze).toHaveProperty('disabled', false));

    await userEvent.click(analyze);
    const response = await screen.findByTestId('analysis-response');
    expect(response.textContent).toBe('Line one\nLine two');
    expect(screen.getByRole('heading', { name: 'Response:' })).toBeTruthy();
    const call = api.calls[1]!;
    expect(call.input).toBe('/api/news-analysis');
    expect(call.body).toEqual({ event_string: 'Fed holds rates: Inflation cools., Oil jumps: OPEC cuts output.' });
    expect(api.unhandled).toEqual([]);
  });

  it('logs and shows an analysis failure with a Retry, and clears the busy state', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockApi({
      'GET market-news': inTurn({ body: NEWS }),
      'POST news-analysis': inTurn({ status: 502, body: { msg: 'The AI provider did not answer.' } }, { body: { response: 'Recovered' } }),
    });
    renderNews();
    await userEvent.click(screen.getByRole('button', { name: 'Get Geo-Political News' }));
    await screen.findByRole('article', { name: 'Oil jumps' });
    await userEvent.click(screen.getByRole('button', { name: 'Analyze And Summarize News' }));
    const alert = await screen.findByRole('alert');
    within(alert).getByText('The AI provider did not answer.');
    expect(error).toHaveBeenCalledWith('Error analyzing Market news:', expect.any(Error));
    expect(screen.getByRole('button', { name: 'Analyze And Summarize News' })).toHaveProperty('disabled', false);
    expect(screen.queryByText('Analyzing...')).toBeNull();
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    expect((await screen.findByTestId('analysis-response')).textContent).toBe('Recovered');
    expect(api.calls.map((call) => `${call.method} ${call.path}`)).toEqual(['GET market-news', 'POST news-analysis', 'POST news-analysis']);
    expect(api.unhandled).toEqual([]);
  });

  it('logs a news failure, shows it with a Retry and keeps analysing disabled; an empty list says so', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const api = mockApi({ 'GET market-news': inTurn({ status: 503, body: { msg: 'Provider down.' } }, { body: [] }) });
    renderNews();
    await userEvent.click(screen.getByRole('button', { name: 'Get Geo-Political News' }));
    const alert = await screen.findByRole('alert');
    within(alert).getByText('Provider down.');
    expect(error).toHaveBeenCalledWith('Error fetching market news:', expect.any(Error));
    expect(screen.getByRole('button', { name: 'Analyze And Summarize News' })).toHaveProperty('disabled', true);
    await userEvent.click(within(alert).getByRole('button', { name: 'Retry' }));
    await screen.findByText(NO_ARTICLES);
    expect(screen.getByRole('button', { name: 'Analyze And Summarize News' })).toHaveProperty('disabled', true);
    expect(api.unhandled).toEqual([]);
  });
});
