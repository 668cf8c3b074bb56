import { Button, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { SCAN_UNIVERSE_LABELS, type ScanTemplate } from '@signalboard/core';
import { IconArrowBarToUp } from '@tabler/icons-react';

/**
 * The starter scans shipped with the product: each with what it looks for and its formula; "Use this
 * scan" puts it in the editor (nothing is saved until the user saves it).
 */
export function StarterScans({ templates, onUse }: { templates: readonly ScanTemplate[]; onUse: (template: ScanTemplate) => void }) {
  if (templates.length === 0) return null;
  return (
    <Stack gap="sm" component="section" aria-labelledby="custom-scan-starter-title">
      <Title order={2} size="h4" id="custom-scan-starter-title">
        Starter scans
      </Title>
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Starter scans">
        {templates.map((template) => (
          <Paper component="li" key={template.key} withBorder radius="md" p="sm" aria-label={template.name}>
            <Stack gap={4}>
              <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
                <Text fw={600}>{template.name}</Text>
                <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                  {SCAN_UNIVERSE_LABELS[template.universe]}
                </Text>
              </Group>
              <Text size="sm" c="dimmed">
                {template.description}
              </Text>
              <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {template.formula}
              </Code>
              <Button
                size="compact-sm"
                variant="light"
                leftSection={<IconArrowBarToUp size={14} aria-hidden />}
                onClick={() => onUse(template)}
                aria-label={`Use this scan: ${template.name}`}
                style={{ alignSelf: 'flex-start' }}
              >
                Use this scan
              </Button>
            </Stack>
          </Paper>
        ))}
      </Stack>
    </Stack>
  );
}
