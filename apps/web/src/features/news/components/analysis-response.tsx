import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';

/**
 * The AI response under 'Response:' with its line breaks kept (spec §4 "General news": newlines
 * become line breaks). Plain React text with `white-space: pre-line`, never HTML.
 */
export function AnalysisResponse({ response, order = 2 }: { response: string; order?: 2 | 3 }) {
  return (
    <Paper withBorder radius="md" p="md" component="section" aria-labelledby="analysis-response-title">
      <Title order={order} size="h5" id="analysis-response-title" mb="xs">
        Response:
      </Title>
      <Text data-testid="analysis-response" style={{ whiteSpace: 'pre-line', overflowWrap: 'anywhere' }}>
        {response}
      </Text>
    </Paper>
  );
}

/** 'Analyzing...' with a spinner while the analyst works. */
export function AnalyzingIndicator({ text = 'Analyzing...' }: { text?: string }) {
  return (
    <Group gap="sm" role="status">
      <Loader size="sm" />
      <Text>{text}</Text>
    </Group>
  );
}

/** A failure a user can act on: what failed, the server's message and a Retry (docs/ui.md "Error"). */
export function NewsErrorAlert({ title, message, onRetry }: { title: string; message: string; onRetry: () => void }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} title={title} role="alert">
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{message}</Text>
        <Button size="xs" color="red" onClick={onRetry}>
          Retry
        </Button>
      </Stack>
    </Alert>
  );
}

/** What the market-news screens show of their analysis request: the spinner, the failure with a Retry, or the response. */
export function AnalysisOutcome({
  analysis,
}: {
  analysis: {
    isPending: boolean;
    isError: boolean;
    isSuccess: boolean;
    error: Error | null;
    data: { response: string } | undefined;
    variables: string | undefined;
    mutate: (text: string) => void;
  };
}) {
  if (analysis.isPending) return <AnalyzingIndicator />;
  if (analysis.isError && analysis.error) {
    const { variables } = analysis;
    return <NewsErrorAlert title="The news could not be analyzed." message={analysis.error.message} onRetry={() => variables !== undefined && analysis.mutate(variables)} />;
  }
  if (analysis.isSuccess && analysis.data) return <AnalysisResponse response={analysis.data.response} />;
  return null;
}
