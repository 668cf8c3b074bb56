import { Text } from '@mantine/core';

/** One level under a chart, as text (the chart's alternative): "Stop: 182.40", the title dimmed. */
export function LevelText({ title, value }: { title: string; value: string }) {
  return (
    <Text size="sm">
      <Text span c="dimmed" size="sm">
        {title}:
      </Text>{' '}
      {value}
    </Text>
  );
}
