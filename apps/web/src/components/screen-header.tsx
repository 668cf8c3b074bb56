import { Stack, Text, Title } from '@mantine/core';

/** Every screen starts with its title and a one-line explanation (UI.md "Layout"). */
export function ScreenHeader({ title, description }: { title: string; description: string }) {
  return (
    <Stack gap={4} mb="lg">
      <Title order={2}>{title}</Title>
      <Text c="dimmed">{description}</Text>
    </Stack>
  );
}
