import { Card, SimpleGrid, Skeleton, Stack } from '@mantine/core';
import type { NewsArticleBody } from '@signalboard/core';
import { NewsCard, type NewsCardVariant } from './news-card';

/** The cards in two columns from medium screens up, one on a phone (spec §2, §9 "Cards in two columns"). */
export function NewsCardList({
  articles,
  variant = 'market',
  label = 'News articles',
}: {
  articles: readonly NewsArticleBody[];
  variant?: NewsCardVariant;
  label?: string;
}) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" role="list" aria-label={label}>
      {articles.map((article, index) => (
        <div role="listitem" key={`${article.id}-${index}`}>
          <NewsCard article={article} variant={variant} />
        </div>
      ))}
    </SimpleGrid>
  );
}

/** Placeholder cards while the news loads (docs/ui.md: skeletons rather than blank space). */
export function NewsCardSkeletons({ count = 4 }: { count?: number }) {
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" aria-hidden>
      {Array.from({ length: count }, (_, index) => (
        <Card key={index} withBorder radius="md" padding="md">
          <Stack gap="xs">
            <Skeleton h={20} w="80%" />
            <Skeleton h={12} w="30%" />
            <Skeleton h={48} />
            <Skeleton h={12} w="50%" />
          </Stack>
        </Card>
      ))}
    </SimpleGrid>
  );
}
