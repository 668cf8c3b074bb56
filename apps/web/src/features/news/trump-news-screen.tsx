// Mantine stylesheets of what this route renders beyond main.tsx's (mantine-styles.test.ts checks them).
import '@mantine/core/styles/Anchor.layer.css';
import '@mantine/core/styles/Card.layer.css';
import '@mantine/core/styles/Image.layer.css';
import '@mantine/core/styles/SimpleGrid.layer.css';
import '@mantine/core/styles/Skeleton.layer.css';
import { Stack, Text } from '@mantine/core';
import { filterTrumpNews, newsAnalysisText } from '@signalboard/core';
import { IconSpeakerphone } from '@tabler/icons-react';
import { useMemo } from 'react';
import { ScreenHeader } from '../../components/screen-header';
import { useMarketNews } from './api/market-news';
import { NewsActions } from './components/news-actions';
import { AnalysisOutcome, NewsErrorAlert } from './components/analysis-response';
import { NewsCardList, NewsCardSkeletons } from './components/news-card-list';
import { useTrumpNewsAnalysis } from './api/trump-news-analysis';

export const NO_TRUMP_NEWS = 'No news mentions Trump right now.';

/** Trump News (spec §2 "Trump News screen", §7, §9 keyword 'trump'). */
export function TrumpNewsScreen() {
  const news = useMarketNews();
  const analysis = useTrumpNewsAnalysis();
  const matching = useMemo(() => filterTrumpNews(news.data ?? []), [news.data]);
  const canAnalyze = news.isSuccess && matching.length > 0 && !analysis.isPending;

  function loadNews() {
    analysis.reset();
    news.mutate();
  }

  function analyze() {
    if (!canAnalyze) return;
    analysis.mutate(newsAnalysisText(matching));
  }

  return (
    <>
      <ScreenHeader title="Trump News" description="Market news that mentions Trump, with an AI summary of its likely market impact." />
      <Stack gap="lg">
        <NewsActions
          loadLabel="Get Trump News"
          loading={news.isPending}
          onLoad={loadNews}
          analyzeLabel={'Analyze And Summarize'}
          canAnalyze={canAnalyze}
          onAnalyze={analyze}
        />

        <AnalysisOutcome analysis={analysis} />

        {news.isIdle && (
          <Stack align="center" gap={6} py="xl" c="dimmed">
            <IconSpeakerphone size={32} aria-hidden />
            <Text ta="center">Press Get Trump News to load the latest market news that mentions Trump.</Text>
          </Stack>
        )}
        {news.isPending && <NewsCardSkeletons />}
        {news.isError && <NewsErrorAlert title="The news could not be loaded." message={news.error.message} onRetry={loadNews} />}
        {news.isSuccess &&
          (matching.length === 0 ? (
            <Stack align="center" gap={4} py="xl">
              <Text fw={500}>{NO_TRUMP_NEWS}</Text>
              <Text size="sm" c="dimmed" ta="center">
                {news.data.length} market {news.data.length === 1 ? 'article was' : 'articles were'} checked; try again later.
              </Text>
            </Stack>
          ) : (
            <Stack gap="xs">
              <Text size="sm" c="dimmed">
                {matching.length} of {news.data.length} market articles mention Trump
              </Text>
              <NewsCardList articles={matching} label="Trump news articles" />
            </Stack>
          ))}
      </Stack>
    </>
  );
}

export { TrumpNewsScreen as Component };
