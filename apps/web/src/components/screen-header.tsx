import { Stack, Text, Title } from '@mantine/core';

/**
 * Every screen starts with its title and a one-line explanation (docs/ui.md "Layout"). The title is the
 * page's one h1 (drawn at h2 size); a screen's sections are h2 under it.
 */
export function ScreenHeader({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap={4} mb="lg">
      <Title order={1} size="h2">
        {title}
      </Title>
      <Text c="dimmed">{description}</Text>
    </Stack>
  );
}
