import { Button, Group, Paper } from '@mantine/core';
import { IconDownload, IconSparkles } from '@tabler/icons-react';

/**
 * The two buttons of the market-news screens (Geo-Political News, Trump News): load the news, then
 * analyse it; the analyse button stays disabled until there is something to analyse.
 */
export function NewsActions(props: {
  loadLabel: string;
  loading: boolean;
  onLoad: () => void;
  analyzeLabel: string;
  canAnalyze: boolean;
  onAnalyze: () => void;
}) {
  return (
    <Paper withBorder p="md" radius="lg">
      <Group gap="sm" wrap="wrap">
        <Button onClick={props.onLoad} loading={props.loading} leftSection={<IconDownload size={16} aria-hidden />} w={{ base: '100%', xs: 'auto' }}>
          {props.loadLabel}
        </Button>
        <Button
          variant="outline"
          onClick={props.onAnalyze}
          disabled={!props.canAnalyze}
          leftSection={<IconSparkles size={16} aria-hidden />}
          w={{ base: '100%', xs: 'auto' }}
        >
          {props.analyzeLabel}
        </Button>
      </Group>
    </Paper>
  );
}
