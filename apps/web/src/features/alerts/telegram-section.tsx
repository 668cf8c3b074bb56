import { Anchor, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { TELEGRAM_LINK_MINUTES, TELEGRAM_MAX_CHATS, telegramLimitMessage, type TelegramConnectResponse } from '@signalboard/core';
import { IconBrandTelegram } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { TONE } from '../../theme';
import { telegramStatusQuery, useConnectTelegram } from './api/channels';
import { TELEGRAM_EMPTY_MESSAGE, TELEGRAM_INTRO, TELEGRAM_UNAVAILABLE_MESSAGE, webhookTime } from './webhook-texts';
import { messageOf } from './status-message';

/**
 * The Telegram part of the Channels card (issue 27): the connected chats (`rows`, rendered by the card)
 * and "Connect Telegram", which gets a single-use link to the installation's bot; once opened in
 * Telegram and started, the chat appears here (the list is read again every few seconds while a link
 * is out). Without a bot on the installation it says what the admin must set.
 */
export function TelegramSection({ rows, count, onLinkOut }: { rows: ReactNode; count: number; onLinkOut: (out: boolean) => void }) {
  const status = useQuery(telegramStatusQuery());
  const connect = useConnectTelegram();
  const [pressed, setPressed] = useState<{ answer: TelegramConnectResponse; count: number } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const full = count >= TELEGRAM_MAX_CHATS;
  // A link is out until it expires (the timer below) or a chat was connected since it was made.
  const link = pressed && count <= pressed.count ? pressed.answer : null;
  useEffect(() => {
    if (!pressed) return;
    // The link's life counted from its arrival (the server's minutes), not from expires_at: a browser whose clock is off would hide it at once, or never.
    const timer = setTimeout(() => setPressed(null), TELEGRAM_LINK_MINUTES * 60_000);
    return () => clearTimeout(timer);
  }, [pressed]);
  useEffect(() => onLinkOut(link !== null), [link, onLinkOut]);

  async function press() {
    setFailure(null);
    try {
      setPressed({ answer: await connect.mutateAsync(), count });
    } catch (error) {
      setFailure(messageOf(error));
    }
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby="telegram-title">
      <Title order={3} size="h5" id="telegram-title">
        Telegram
      </Title>
      <Text size="sm" c="dimmed">
        {TELEGRAM_INTRO}
      </Text>
      {status.isPending ? (
        <Group gap="sm" role="status">
          <Loader size="sm" />
          <Text size="sm">Checking Telegram...</Text>
        </Group>
      ) : !status.data?.available ? (
        <Text size="sm">{TELEGRAM_UNAVAILABLE_MESSAGE}</Text>
      ) : (
        <>
          {count === 0 ? <Text size="sm">{TELEGRAM_EMPTY_MESSAGE}</Text> : rows}
          {link ? (
            <Paper withBorder radius="md" p="md" role="status" aria-label="Telegram link">
              <Stack gap={6}>
                <Text size="sm">{link.msg}</Text>
                <Group gap="sm" wrap="wrap">
                  <Button component="a" href={link.link} target="_blank" rel="noopener noreferrer" leftSection={<IconBrandTelegram size={16} aria-hidden />}>
                    Open Telegram
                  </Button>
                  <Text size="sm" c="dimmed">
                    Valid until {webhookTime(link.expires_at)}
                  </Text>
                </Group>
                <Anchor href={link.link} target="_blank" rel="noopener noreferrer" size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
                  {link.link}
                </Anchor>
                <Text size="sm" c="dimmed">
                  Waiting for you to press Start in Telegram...
                </Text>
              </Stack>
            </Paper>
          ) : null}
          <Group gap="sm" wrap="wrap">
            <Button variant={link ? 'default' : 'filled'} leftSection={<IconBrandTelegram size={16} aria-hidden />} disabled={full || connect.isPending} onClick={() => void press()}>
              {connect.isPending ? 'Connecting...' : link ? 'New link' : 'Connect Telegram'}
            </Button>
            {full ? <Text size="sm">{telegramLimitMessage(TELEGRAM_MAX_CHATS)}</Text> : null}
          </Group>
          {failure ? (
            <Text size="sm" role="alert" c={TONE.failure}>
              Error: {failure}
            </Text>
          ) : null}
        </>
      )}
    </Stack>
  );
}
