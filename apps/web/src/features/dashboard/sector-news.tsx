import { Anchor, Button, Group, Image, Stack, Text } from '@mantine/core';
import { cutSummary, parseSectorNews, splitTopNews, type SectorNewsItem } from '@signalboard/core';
import { IconChevronDown, IconChevronUp, IconExternalLink } from '@tabler/icons-react';
import { useId, useMemo, useState } from 'react';
import { NO_SECTOR_NEWS, SECTOR_NEWS_UNPARSEABLE } from './dashboard-messages';

/**
 * A sector's news (spec §2, §9): the top 3 items, then an expand control for the rest; each summary
 * cut at 100 characters. Provider content is untrusted: text only, links and images only for
 * http(s) URLs (parseSectorNews drops the others).
 */
export function SectorNews({ sector, valueRawJson }: { sector: string; valueRawJson: string }) {
  const parsed = useMemo(() => parseSectorNews(valueRawJson), [valueRawJson]);
  const [expanded, setExpanded] = useState(false);
  const restId = useId();

  if (!parsed.ok) {
    return (
      <Text size="sm" c="dimmed">
        {SECTOR_NEWS_UNPARSEABLE}
      </Text>
    );
  }
  if (parsed.items.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {NO_SECTOR_NEWS}
      </Text>
    );
  }

  const { top, rest } = splitTopNews(parsed.items);
  return (
    <Stack gap="sm">
      <NewsList items={top} label={`${sector} news`} />
      {rest.length > 0 && (
        <>
          <div id={restId} hidden={!expanded}>
            {expanded && <NewsList items={rest} label={`More ${sector} news`} />}
          </div>
          <Button
            variant="subtle"
            size="compact-sm"
            w="fit-content"
            aria-expanded={expanded}
            aria-controls={restId}
            leftSection={expanded ? <IconChevronUp size={14} aria-hidden /> : <IconChevronDown size={14} aria-hidden />}
            onClick={() => setExpanded((open) => !open)}
          >
            {expanded ? 'Show less' : `Show ${rest.length} more`}
          </Button>
        </>
      )}
    </Stack>
  );
}

function NewsList({ items, label }: { items: SectorNewsItem[]; label: string }) {
  return (
    <ul className="sb-sector-news" aria-label={label}>
      {items.map((item, index) => (
        <li key={`${item.url ?? item.title}-${index}`}>
          <NewsItem item={item} />
        </li>
      ))}
    </ul>
  );
}

function NewsItem({ item }: { item: SectorNewsItem }) {
  const summary = cutSummary(item.summary);
  // A picture that does not load is left out rather than shown broken.
  const [imageFailed, setImageFailed] = useState(false);
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      {item.image && !imageFailed && (
        <Image
          src={item.image}
          alt=""
          w={64}
          h={64}
          radius="sm"
          fit="cover"
          loading="lazy"
          referrerPolicy="no-referrer"
          onError={() => setImageFailed(true)}
          style={{ flexShrink: 0 }}
        />
      )}
      <Stack gap={2} style={{ minWidth: 0 }}>
        {item.url ? (
          <Anchor href={item.url} target="_blank" rel="noopener noreferrer" size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {item.title}
            <IconExternalLink size={12} aria-hidden style={{ marginLeft: 4, verticalAlign: 'middle' }} />
          </Anchor>
        ) : (
          <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
            {item.title}
          </Text>
        )}
        {summary && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {summary}
          </Text>
        )}
      </Stack>
    </Group>
  );
}
