import { Center, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Brand } from './brand';

/** The centred card the sign-in screens share. */
export function AuthLayout(props: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <Center className="sb-auth-background" p="md">
      <Stack w="100%" maw={420} gap="lg">
        <Center>
          <Brand size="lg" />
        </Center>
        <Paper withBorder shadow="md" p="xl" radius="lg">
          <Stack gap={4} mb="lg">
            <Title order={2}>{props.title}</Title>
            <Text c="dimmed" size="sm">
              {props.subtitle}
            </Text>
          </Stack>
          {props.children}
        </Paper>
      </Stack>
    </Center>
  );
}
