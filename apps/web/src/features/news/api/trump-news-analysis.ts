import { newsEndpoints } from '@signalboard/core';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** POST api/analyze-trump-news {news_data} → {response} (spec §7). */
export const analyzeTrumpNews = (newsData: string) =>
  apiCall(newsEndpoints.analyzeTrumpNews, { body: { news_data: newsData } });

export const useTrumpNewsAnalysis = () =>
  useMutation(
    mutationOptions({
      mutationKey: ['analyze-trump-news'],
      mutationFn: analyzeTrumpNews,
      onError: (error: Error) => console.error('Error analyzing Trump news:', error),
    }),
  );
