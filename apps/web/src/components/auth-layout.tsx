import { Box, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Brand } from './brand';
import { MAIN_CONTENT_ID } from './skip-link';

/**
 * The centred card the sign-in screens share: the brand as the page's header, the card as its main
 * content. No skip link: there is nothing to skip (the header has no tab stops, the form takes the focus).
 */
export function AuthLayout(props: { title: string; subtitle: string; children: ReactNode }) {
  return (
    <Stack className="sb-auth-background" align="center" justify="center" gap="lg" p="md">
      <Box component="header" w="100%" maw={420} style={{ display: 'flex', justifyContent: 'center' }}>
        <Brand size="lg" />
      </Box>
      <Box component="main" id={MAIN_CONTENT_ID} tabIndex={-1} w="100%" maw={420}>
        <Paper withBorder shadow="md" p="xl" radius="lg">
          <Stack gap={4} mb="lg">
            <Title order={1} size="h2">
              {props.title}
            </Title>
            <Text c="dimmed" size="sm">
              {props.subtitle}
            </Text>
          </Stack>
          {props.children}
        </Paper>
      </Box>
    </Stack>
  );
}
