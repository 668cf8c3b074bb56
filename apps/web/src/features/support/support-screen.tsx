import { Button, FileInput, Group, Paper, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { isSupportFormComplete, SUPPORT_ATTACHMENT_MAX_BYTES, SUPPORT_FIELDS_REQUIRED_MESSAGE } from '@signalboard/core';
import { useState, type FormEvent } from 'react';
import { useCurrentUser } from '../../lib/session-queries';
import { ApiError } from '../../lib/client';
import { contactSupport } from './api/support';
import { ScreenHeader } from '../../components/screen-header';
import { notifyError, notifySuccess } from '../../components/notify';

export const SUPPORT_SENT = 'Support request sent successfully!';
export const SUPPORT_FAILED = 'Failed to send support request. Please try again.';
const MAX_MB = SUPPORT_ATTACHMENT_MAX_BYTES / 1024 / 1024;

/** Contact Support (spec §2 "Support screen", §5, §8). */
export function SupportScreen() {
  const user = useCurrentUser();
  const [header, setHeader] = useState('');
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const fileTooLarge = file !== null && file.size > SUPPORT_ATTACHMENT_MAX_BYTES;

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!isSupportFormComplete({ header, body })) {
      notifyError(SUPPORT_FIELDS_REQUIRED_MESSAGE);
      return;
    }
    if (fileTooLarge) return;
    setBusy(true);
    try {
      await contactSupport({ header, body, file });
      notifySuccess(SUPPORT_SENT);
      setHeader('');
      setBody('');
      setFile(null);
    } catch (error) {
      // The spec's alert, with the server's reason under it when it gave one (a limit, a refused file).
      if (error instanceof ApiError && error.status >= 400) notifyError(error.message, SUPPORT_FAILED);
      else notifyError(SUPPORT_FAILED);
    } finally {
      setBusy(false);
    }
  }

  return (
    <>
      <ScreenHeader
        title="Contact Support"
        description={`Tell us what went wrong or what you need. We answer by e-mail${user.data ? ` to ${user.data.email}` : ''}.`}
      />
      <Paper withBorder p="lg" radius="lg" maw={720}>
        <form onSubmit={onSubmit} noValidate>
          <Stack gap="md">
            <TextInput label="Header" required value={header} onChange={(e) => setHeader(e.currentTarget.value)} maxLength={200} />
            <Textarea
              label="Body"
              required
              autosize
              minRows={6}
              maxRows={16}
              value={body}
              onChange={(e) => setBody(e.currentTarget.value)}
            />
            <FileInput
              label="Attachment"
              description={`Optional: a screenshot or file, up to ${MAX_MB} MB.`}
              placeholder="Choose a file"
              leftSection={<IconPaperclip size={16} />}
              clearable
              clearButtonProps={{ 'aria-label': 'Remove attachment' }}
              value={file}
              onChange={setFile}
              error={fileTooLarge ? `The attachment is larger than ${MAX_MB} MB.` : undefined}
            />
            <Group justify="space-between">
              <Text size="xs" c="dimmed">
                Fields marked * are required.
              </Text>
              <Button type="submit" disabled={busy}>
                {busy ? 'Sending...' : 'Send Email'}
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
    </>
  );
}

export { SupportScreen as Component };
