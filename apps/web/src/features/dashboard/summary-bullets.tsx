import { List, Text } from '@mantine/core';
import { summaryBullets } from '@signalboard/core';
import { useMemo } from 'react';
import { NO_SUMMARY } from './dashboard-messages';

/** A summary as bullets of 2 sentences (spec §2, §9); 'No summary available.' when it is empty. */
export function SummaryBullets({ summary, label }: { summary: string; label: string }) {
  const bullets = useMemo(() => summaryBullets(summary), [summary]);
  if (bullets.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {NO_SUMMARY}
      </Text>
    );
  }
  return (
    <List spacing={6} size="sm" aria-label={label}>
      {bullets.map((bullet, index) => (
        <List.Item key={index} style={{ overflowWrap: 'anywhere' }}>
          {bullet}
        </List.Item>
      ))}
    </List>
  );
}
