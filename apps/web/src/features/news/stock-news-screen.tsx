// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Combobox.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import { Alert, Anchor, Button, Group, Paper, Select, Stack, Text, Title } from '@mantine/core';
import {
  DEFAULT_STOCK_NEWS_INTERVAL,
  isStockNewsInterval,
  STOCK_NEWS_INTERVAL_LABELS,
  STOCK_NEWS_INTERVALS,
  stockNewsEventString,
  stockNewsRange,
  type StockNewsInterval,
} from '@signalboard/core';
import { IconAlertTriangle, IconNews, IconSearch, IconSparkles } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { useFavorites } from '../../lib/api/favorites';
import { ScreenHeader } from '../../components/screen-header';
import { AnalysisResponse, AnalyzingIndicator, NewsErrorAlert } from './components/analysis-response';
import { NewsCardList, NewsCardSkeletons } from './components/news-card-list';
import { useCompanyNews, type CompanyNewsResult } from './api/company-news';
import { useNewsAnalysis } from './api/stock-news-analysis';

export const ANALYZING = 'Analyzing...';
export const emptyNewsMessage = (symbol: string) => `No news for ${symbol} in this interval.`;

const INTERVAL_OPTIONS = STOCK_NEWS_INTERVALS.map((value) => ({ value, label: STOCK_NEWS_INTERVAL_LABELS[value] }));

/** News By Stock (spec §2, §4 "Stock news", §5, §7 notes, §8). */
export function StockNewsScreen() {
  const favorites = useFavorites();
  const [chosenSymbol, setChosenSymbol] = useState<string | null>(null);
  const [interval, setIntervalValue] = useState<StockNewsInterval | null>(DEFAULT_STOCK_NEWS_INTERVAL);
  const news = useCompanyNews();
  const analysis = useNewsAnalysis();

  const favoriteList = favorites.data ?? [];
  // Spec §4: the selected symbol defaults to the first favourite once they are loaded.
  const symbol = chosenSymbol && favoriteList.some((f) => f.symbol === chosenSymbol) ? chosenSymbol : (favoriteList[0]?.symbol ?? null);
  const symbolOptions = favoriteList.map((f) => ({ value: f.symbol, label: `${f.symbol} - ${f.description}` }));

  function search(event?: FormEvent) {
    event?.preventDefault();
    // Spec §5: both a symbol and an interval, otherwise a console warning only and no call.
    if (!symbol || !interval) {
      console.warn('Please select a stock and an interval.');
      return;
    }
    if (news.isPending) return;
    const range = stockNewsRange(interval, new Date());
    analysis.reset();
    news.mutate({ symbol, interval, ...range });
  }

  // The news the analysis is about: the loaded articles, when they are the selected stock's.
  const loaded = news.isSuccess && news.data.symbol === symbol ? news.data : null;

  function analyze() {
    // Spec §5: a selected symbol and a non-empty news list, else nothing happens.
    const eventString = stockNewsEventString(symbol, loaded?.articles);
    if (!eventString || analysis.isPending) return;
    analysis.mutate(eventString);
  }

  const noFavorites = favorites.isSuccess && favoriteList.length === 0;

  return (
    <>
      <ScreenHeader title="News By Stock" description="Read the latest news about one of your favorite stocks and get an AI summary of it." />
      <Stack gap="lg">
        <Paper withBorder p="lg" radius="lg">
          <form onSubmit={search} noValidate>
            <Group align="flex-start" gap="md" wrap="wrap">
              <Select
                label="Favorite Stocks"
                placeholder={favorites.isPending ? 'Loading favorites...' : noFavorites ? 'No favorites yet' : 'Choose a stock'}
                data={symbolOptions}
                value={symbol}
                onChange={(value) => {
                  if (!value || value === symbol) return;
                  setChosenSymbol(value);
                  // The response shown is about the stock analysed; another stock starts afresh.
                  analysis.reset();
                }}
                allowDeselect={false}
                disabled={favorites.isPending || noFavorites}
                w={{ base: '100%', sm: 320 }}
              />
              <Select
                label="Interval"
                data={INTERVAL_OPTIONS}
                value={interval}
                onChange={(value) => setIntervalValue(isStockNewsInterval(value) ? value : null)}
                allowDeselect={false}
                w={{ base: '100%', sm: 160 }}
              />
              <Button
                type="submit"
                leftSection={<IconSearch size={16} aria-hidden />}
                loading={news.isPending}
                disabled={favorites.isPending}
                mt={{ base: 0, sm: 25 }}
                w={{ base: '100%', sm: 'auto' }}
              >
                Search
              </Button>
            </Group>
          </form>
          {favorites.isError && (
            <Alert mt="md" color="red" variant="light" icon={<IconAlertTriangle size={18} />} title="Your favorites could not be loaded.">
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{favorites.error.message}</Text>
                <Button size="xs" color="red" onClick={() => void favorites.refetch()}>
                  Retry
                </Button>
              </Stack>
            </Alert>
          )}
          {noFavorites && (
            <Text mt="md" size="sm" c="dimmed">
              You have no favorite stocks yet: add some on the{' '}
              <Anchor component={Link} to="/dashboard/symbollookup" inherit>
                WatchList
              </Anchor>{' '}
              first.
            </Text>
          )}
        </Paper>

        <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="stock-news-analysis-title">
          <Stack gap="sm">
            <Group justify="space-between" gap="sm" wrap="wrap">
              <Title order={2} size="h4" id="stock-news-analysis-title">
                Analyze Stock: {symbol ?? ''}
              </Title>
              <Button
                variant="outline"
                leftSection={<IconSparkles size={16} aria-hidden />}
                onClick={analyze}
                disabled={!loaded || loaded.articles.length === 0 || analysis.isPending}
                w={{ base: '100%', xs: 'auto' }}
              >
                {analysis.isPending ? ANALYZING : 'AI Analysis & Summary'}
              </Button>
            </Group>
            <AnalysisOutcome analysis={analysis} hasNews={!!loaded && loaded.articles.length > 0} onRetry={analyze} />
          </Stack>
        </Paper>

        <NewsOutcome news={news} onRetry={() => news.variables && news.mutate(news.variables)} />
      </Stack>
    </>
  );
}

function AnalysisOutcome({ analysis, hasNews, onRetry }: { analysis: ReturnType<typeof useNewsAnalysis>; hasNews: boolean; onRetry: () => void }) {
  if (analysis.isPending) return <AnalyzingIndicator text={ANALYZING} />;
  if (analysis.isError) return <NewsErrorAlert title="The analysis could not be made." message={analysis.error.message} onRetry={onRetry} />;
  // Plain text, never HTML; the analyst's line breaks are kept.
  if (analysis.isSuccess) return <AnalysisResponse response={analysis.data} order={3} />;
  return (
    <Text size="sm" c="dimmed">
      {hasNews ? 'Press AI Analysis & Summary for a summary of the news below.' : 'Search for news first; the analysis summarizes the articles found.'}
    </Text>
  );
}

function NewsOutcome({ news, onRetry }: { news: ReturnType<typeof useCompanyNews>; onRetry: () => void }) {
  if (news.isIdle) {
    return (
      <Stack align="center" gap={6} py="xl" c="dimmed">
        <IconNews size={32} aria-hidden />
        <Text ta="center">Choose a stock and an interval, then press Search to read its news.</Text>
      </Stack>
    );
  }
  if (news.isPending) {
    return (
      <Stack gap="sm" aria-busy>
        <Text size="sm" c="dimmed" role="status">
          Loading news...
        </Text>
        <NewsCardSkeletons count={2} />
      </Stack>
    );
  }
  if (news.isError) {
    return <NewsErrorAlert title="The news could not be loaded." message={news.error.message} onRetry={onRetry} />;
  }
  return <NewsList result={news.data} />;
}

function NewsList({ result }: { result: CompanyNewsResult }) {
  const { symbol, articles, interval, from, to } = result;
  if (articles.length === 0) {
    return (
      <Stack align="center" gap={4} py="xl">
        <Text fw={500}>{emptyNewsMessage(symbol)}</Text>
        <Text size="sm" c="dimmed" ta="center">
          {interval === 'daily' ? 'Try the Weekly interval for a longer range.' : 'Try again later or choose another stock.'}
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {articles.length} {articles.length === 1 ? 'article' : 'articles'} for {symbol} · {from} to {to}
      </Text>
      <NewsCardList articles={articles} variant="stock" label={`News for ${symbol}`} />
    </Stack>
  );
}

export { StockNewsScreen as Component };
