import { newsEndpoints } from '@signalboard/core';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/market-news (spec §7): the general market news list. */
export const fetchMarketNews = () => apiCall(newsEndpoints.getMarketNews);

/** Each 'Get … News' press is one load; a failure is logged (spec §8) and shown with a Retry. */
export const useMarketNews = () =>
  useMutation(
    mutationOptions({
      mutationKey: ['market-news'],
      mutationFn: fetchMarketNews,
      onError: (error: Error) => console.error('Error fetching market news:', error),
    }),
  );
