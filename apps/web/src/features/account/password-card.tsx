import { Button, Group, Paper, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { PASSWORD_RULES } from '@signalboard/core';
import { useState, type FormEvent } from 'react';
import { notifyError, notifySuccess } from '../../components/notify';
import { ApiError } from '../../lib/client';
import { useChangePassword } from './api/account';

export const OTHERS_SIGNED_OUT = 'Your other devices were signed out.';

/**
 * Change Password on the Account screen (issue 28): the current password, then the new one. The
 * server checks both (docs/accounts.md) and says what is wrong; every other session ends with it.
 */
export function PasswordCard() {
  const change = useChangePassword();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [submitted, setSubmitted] = useState(false);

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setSubmitted(true);
    if (current === '' || next === '') return;
    try {
      const answer = await change.mutateAsync({ current_password: current, new_password: next });
      notifySuccess(`${answer.msg} ${OTHERS_SIGNED_OUT}`);
      setCurrent('');
      setNext('');
      setSubmitted(false);
    } catch (error) {
      notifyError(error instanceof ApiError ? error.message : String(error));
    }
  }

  return (
    <Paper withBorder p="lg" radius="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4">
            Change password
          </Title>
          <PasswordInput
            label="Current Password"
            autoComplete="current-password"
            value={current}
            onChange={(event) => setCurrent(event.currentTarget.value)}
            error={submitted && current === '' ? 'Current password is required' : undefined}
          />
          <PasswordInput
            label="New Password"
            description={PASSWORD_RULES}
            autoComplete="new-password"
            value={next}
            onChange={(event) => setNext(event.currentTarget.value)}
            error={submitted && next === '' ? 'New password is required' : undefined}
          />
          <Group justify="space-between" gap="sm">
            <Text size="xs" c="dimmed">
              Your other devices are signed out when it changes.
            </Text>
            <Button type="submit" loading={change.isPending}>
              Change Password
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
