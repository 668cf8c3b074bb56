import { newsEndpoints } from '@signalboard/core';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** POST api/news-analysis {event_string} → {response} (spec §7). */
export async function analyzeNews(eventString: string): Promise<string> {
  return (await apiCall(newsEndpoints.analyzeNews, { body: { event_string: eventString } })).response;
}

/** The analysis loading flag clears on success and on error (spec §4); failures are logged (§8). */
export const newsAnalysisMutation = () =>
  mutationOptions({
    mutationKey: ['news-analysis', 'stock'],
    mutationFn: analyzeNews,
    onError: (error: Error) => console.error('Error analyzing news:', error),
  });

export const useNewsAnalysis = () => useMutation(newsAnalysisMutation());
