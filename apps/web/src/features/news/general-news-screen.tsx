// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import { Stack, Text } from '@mantine/core';
import { newsAnalysisText } from '@signalboard/core';
import { IconWorld } from '@tabler/icons-react';
import { ScreenHeader } from '../../components/screen-header';
import { NewsActions } from './components/news-actions';
import { AnalysisOutcome, NewsErrorAlert } from './components/analysis-response';
import { NewsCardList, NewsCardSkeletons } from './components/news-card-list';
import { useMarketNews } from './api/market-news';
import { useNewsAnalysis } from './api/market-news-analysis';

export const NO_ARTICLES = 'No news articles match the filter criteria.';

/** Geo-Political News (spec §2, §4 "General news", §7 notes, §8). */
export function GeneralNewsScreen() {
  const news = useMarketNews();
  const analysis = useNewsAnalysis();
  const articles = news.data ?? [];
  const canAnalyze = news.isSuccess && articles.length > 0 && !analysis.isPending;

  function loadNews() {
    analysis.reset();
    news.mutate();
  }

  function analyze() {
    if (!canAnalyze) return;
    analysis.mutate(newsAnalysisText(articles));
  }

  return (
    <>
      <ScreenHeader title="Geo-Political News" description="Today's market and world news, with an AI summary of what it means for traders." />
      <Stack gap="lg">
        <NewsActions
          loadLabel="Get Geo-Political News"
          loading={news.isPending}
          onLoad={loadNews}
          analyzeLabel={analysis.isPending ? 'Analyzing...' : 'Analyze And Summarize News'}
          canAnalyze={canAnalyze}
          onAnalyze={analyze}
        />

        <AnalysisOutcome analysis={analysis} />

        <NewsOutcome news={news} onRetry={loadNews} />
      </Stack>
    </>
  );
}

function NewsOutcome({ news, onRetry }: { news: ReturnType<typeof useMarketNews>; onRetry: () => void }) {
  if (news.isIdle) {
    return (
      <Stack align="center" gap={6} py="xl" c="dimmed">
        <IconWorld size={32} aria-hidden />
        <Text ta="center">Press Get Geo-Political News to load the latest market news.</Text>
      </Stack>
    );
  }
  if (news.isPending) return <NewsCardSkeletons />;
  if (news.isError) return <NewsErrorAlert title="The news could not be loaded." message={news.error.message} onRetry={onRetry} />;
  if (news.data.length === 0) {
    return (
      <Stack align="center" gap={4} py="xl">
        <Text fw={500}>{NO_ARTICLES}</Text>
        <Text size="sm" c="dimmed" ta="center">
          Try again later: providers publish news through the day.
        </Text>
      </Stack>
    );
  }
  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        {news.data.length} {news.data.length === 1 ? 'article' : 'articles'}
      </Text>
      <NewsCardList articles={news.data} />
    </Stack>
  );
}

export { GeneralNewsScreen as Component };
