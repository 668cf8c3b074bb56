import { newsEndpoints } from '@signalboard/core';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** POST api/news-analysis {event_string} → {response} (spec §7). */
export const analyzeNews = (eventString: string) =>
  apiCall(newsEndpoints.analyzeNews, { body: { event_string: eventString } });

/** A failure is logged with the spec's text (§8) and shown by the screen with a Retry. */
export const useNewsAnalysis = () =>
  useMutation(
    mutationOptions({
      mutationKey: ['news-analysis'],
      mutationFn: analyzeNews,
      onError: (error: Error) => console.error('Error analyzing Market news:', error),
    }),
  );
