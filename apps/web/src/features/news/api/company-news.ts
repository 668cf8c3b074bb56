import { newsEndpoints, type NewsArticleBody, type StockNewsInterval } from '@signalboard/core';
import { mutationOptions, useMutation } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** One News By Stock search: the symbol, the interval and the date range it was turned into. */
export interface CompanyNewsParams {
  symbol: string;
  interval: StockNewsInterval;
  from: string;
  to: string;
}

export interface CompanyNewsResult extends CompanyNewsParams {
  articles: NewsArticleBody[];
}

/** GET api/company-news?symbol=&from=&to= (spec §7). */
export async function getCompanyNews(params: CompanyNewsParams): Promise<CompanyNewsResult> {
  const { symbol, from, to } = params;
  const articles = await apiCall(newsEndpoints.getCompanyNews, { query: { symbol, from, to } });
  return { ...params, articles };
}

/** Each Search is one call; a failure is logged as the spec says (§8) and shown with a retry. */
export const companyNewsMutation = () =>
  mutationOptions({
    mutationKey: ['company-news'],
    mutationFn: getCompanyNews,
    onError: (error: Error) => console.error('Error fetching news:', error),
  });

export const useCompanyNews = () => useMutation(companyNewsMutation());
