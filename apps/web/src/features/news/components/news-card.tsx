import { Anchor, Card, Image, Stack, Text, Title } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { safeLinkUrl, type NewsArticleBody } from '@signalboard/core';
import { formatMediumDate } from '../../../components/format';

/**
 * One news article as a card (spec §2). Provider content is untrusted: everything is rendered as
 * React text (never HTML), and the image and 'Read More' link appear only for http(s) URLs and
 * our own same-origin paths (core `safeLinkUrl`).
 *
 * - variant 'market' (Geo-Political News, Trump News): headline, source, optional image,
 *   'Summary', 'Category', 'Date' (medium format) and 'Read More'.
 * - variant 'stock' (News By Stock): headline, 'source | category', optional image, summary and
 *   'Read More'.
 */
export type NewsCardVariant = 'market' | 'stock';

export interface NewsCardProps {
  article: Pick<NewsArticleBody, 'headline' | 'summary' | 'source' | 'category' | 'url' | 'image' | 'datetime'>;
  variant?: NewsCardVariant;
}

function Field({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <Text size="sm">
      <Text span fw={600}>
        {label}:
      </Text>{' '}
      {children}
    </Text>
  );
}

export function NewsCard({ article, variant = 'market' }: NewsCardProps) {
  const imageUrl = safeLinkUrl(article.image);
  const linkUrl = safeLinkUrl(article.url);
  const headline = article.headline.trim() === '' ? 'Untitled article' : article.headline;

  return (
    <Card withBorder radius="md" padding="md" component="article" aria-label={headline} h="100%">
      <Stack gap="xs" h="100%">
        <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {headline}
        </Title>
        <Text size="sm" c="dimmed">
          {variant === 'stock' ? `${article.source} | ${article.category}` : article.source}
        </Text>
        {imageUrl && (
          <Image src={imageUrl} alt="Article image" radius="sm" mah={220} fit="cover" referrerPolicy="no-referrer" />
        )}
        {variant === 'stock' ? (
          article.summary.trim() !== '' && (
            <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
              {article.summary}
            </Text>
          )
        ) : (
          <>
            <Field label="Summary">
              <Text span style={{ overflowWrap: 'anywhere' }}>
                {article.summary}
              </Text>
            </Field>
            <Field label="Category">{article.category}</Field>
            <Field label="Date">{formatMediumDate(article.datetime)}</Field>
          </>
        )}
        {linkUrl && (
          <Anchor href={linkUrl} target="_blank" rel="noopener noreferrer" size="sm" mt="auto" w="fit-content">
            Read More <IconExternalLink size={14} aria-hidden style={{ verticalAlign: 'middle' }} />
          </Anchor>
        )}
      </Stack>
    </Card>
  );
}
