import '@mantine/core/styles/Modal.layer.css';
import '@mantine/core/styles/Code.layer.css';
import { Button, Code, Group, Modal, Stack, Text, Title } from '@mantine/core';
import type { TestWebhookResponse } from '@signalboard/core';
import type { ReactNode } from 'react';
import { TONE } from '../../theme';
import { bodyText, durationText, headersText, testOutcome } from './webhook-texts';

/** A test's result, or the msg of a refused test (e.g. the hourly limit: 429). */
export type TestShown = { name: string; result: TestWebhookResponse } | { name: string; refusal: string };

const block = { overflowWrap: 'anywhere', whiteSpace: 'pre-wrap', maxHeight: 280, overflowY: 'auto' } as const;

/** A captioned block of text as it went over the wire (headers, a body). */
function Wire({ label, caption, text }: { label: string; caption: string; text: string }) {
  return (
    <Stack gap={2} role="group" aria-label={label}>
      <Text size="xs" c="dimmed">
        {caption}
      </Text>
      <Code block style={block}>
        {text}
      </Code>
    </Stack>
  );
}

function Part({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap={6} component="section" aria-label={title}>
      <Title order={3} size="h6">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

/** "Test delivery to <name>": the outcome, the signed request as it was sent, and the answer (or why none came). */
export function WebhookTestModal({ shown, onClose }: { shown: TestShown; onClose: () => void }) {
  const result = 'result' in shown ? shown.result : null;
  const outcome = result ? testOutcome(result) : 'refusal' in shown ? shown.refusal : '';
  return (
    <Modal opened onClose={onClose} title={`Test delivery to ${shown.name}`} size="xl" withCloseButton={false}>
      <Stack gap="md">
        <Text fw={600} c={result?.ok ? TONE.success : TONE.failure} data-testid="webhook-test-outcome" style={{ overflowWrap: 'anywhere' }}>
          {outcome}
        </Text>
        {result && result.msg !== outcome ? (
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {result.msg}
          </Text>
        ) : null}
        {result ? (
          <>
            <Part title="Request">
              <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                {result.request.method} {result.request.url}
              </Text>
              <Wire label="Request headers" caption="Headers" text={headersText(result.request.headers)} />
              <Wire label="Request body" caption="Body" text={bodyText(result.request.body)} />
            </Part>
            <Part title="Answer">
              {result.response ? (
                <>
                  <Text size="sm" style={{ fontVariantNumeric: 'tabular-nums' }}>
                    Status {result.response.status} · {durationText(result.response.duration_ms)}
                  </Text>
                  <Wire label="Answer body" caption="Body" text={bodyText(result.response.body)} />
                </>
              ) : (
                <Text size="sm" c={TONE.failure} style={{ overflowWrap: 'anywhere' }}>
                  No answer: {result.error ?? 'the request did not complete.'}
                </Text>
              )}
            </Part>
          </>
        ) : null}
        <Group justify="flex-end">
          <Button onClick={onClose} data-autofocus>
            Close
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
