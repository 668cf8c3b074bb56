import { Badge, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { VERIFICATION_CODE_DIGITS } from '@signalboard/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { phoneOnFileQuery, sendVerificationCode, verifyCode, type PhoneOnFile } from './api/phone';
import { TONE } from '../../theme';
import { phoneNumberProblem, sendFailure, SMS_MESSAGES, verificationProblem, verifyFailure } from './sms-messages';
import { StatusLine, type StatusMessage } from './status-message';

/**
 * The SMS Verification card (spec §2 "Alert System Settings", §5, §8 "SMS"): enter a number, send a
 * code, enter it, verify. The code entry appears once a send succeeds and hides once the number is
 * verified; on opening, the number on file fills the field.
 */
export function SmsVerificationCard() {
  const queryClient = useQueryClient();
  const onFile = useQuery(phoneOnFileQuery());
  // What the user typed; until they type, the field shows the number on file.
  const [typed, setTyped] = useState<string | null>(null);
  const [code, setCode] = useState('');
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState<'send' | 'verify' | null>(null);
  const [status, setStatus] = useState<StatusMessage | null>(null);
  const [phoneError, setPhoneError] = useState<string | null>(null);
  const [codeError, setCodeError] = useState<string | null>(null);

  const fileNumber = onFile.data?.phoneNumber ?? null;
  const phone = typed ?? fileNumber ?? '';

  const loadStatus: StatusMessage | null = onFile.isPending ? null : onFile.isError ? SMS_MESSAGES.loadFailed : fileNumber ? SMS_MESSAGES.loaded : SMS_MESSAGES.none;
  const shown = status ?? loadStatus;
  const verified = fileNumber !== null && fileNumber === phone.trim();

  async function onSend(event: FormEvent) {
    event.preventDefault();
    const number = phone.trim();
    const problem = phoneNumberProblem(number);
    setPhoneError(problem?.text ?? null);
    if (problem) return;
    setBusy('send');
    setStatus(SMS_MESSAGES.sending);
    try {
      await sendVerificationCode(number);
      setSentTo(number);
      setCode('');
      setCodeError(null);
      setStatus(SMS_MESSAGES.sent);
    } catch (error) {
      setStatus(sendFailure(error));
    } finally {
      setBusy(null);
    }
  }

  async function onVerify(event: FormEvent) {
    event.preventDefault();
    const entered = code.trim();
    const problem = verificationProblem(sentTo, entered);
    setCodeError(problem?.text ?? null);
    if (problem || !sentTo) return;
    setBusy('verify');
    try {
      const answer = await verifyCode(sentTo, entered);
      const saved: PhoneOnFile = { phoneNumber: answer.phoneNumber, smsEnabled: answer.smsEnabled };
      queryClient.setQueryData(phoneOnFileQuery().queryKey, saved);
      setTyped(null);
      setSentTo(null);
      setCode('');
      setStatus(SMS_MESSAGES.verified);
    } catch (error) {
      setStatus(verifyFailure(error));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder p="lg" radius="lg" component="section" aria-labelledby="sms-verification-title">
      <Stack gap="md">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={2} size="h4" id="sms-verification-title">
            SMS Verification
          </Title>
          {fileNumber && (
            <Badge color={TONE.success} variant="light" leftSection={<IconCircleCheck size={14} aria-hidden />} tt="none">
              Verified: {fileNumber}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          Alerts by SMS go to a number you have confirmed with a code we send to it.
        </Text>
        <form onSubmit={onSend} noValidate>
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label="Phone number"
              description="International format, e.g. +12223334444"
              type="tel"
              autoComplete="tel"
              inputMode="tel"
              maxLength={20}
              value={phone}
              onChange={(event) => {
                setTyped(event.currentTarget.value);
                setPhoneError(null);
              }}
              error={phoneError}
              style={{ flex: '1 1 220px' }}
            />
            <Button type="submit" disabled={busy !== null} mt={{ base: 0, xs: 46 }} variant={verified ? 'default' : 'filled'}>
              {busy === 'send' ? 'Sending verification code...' : 'Send code'}
            </Button>
          </Group>
        </form>
        {sentTo !== null && (
          <form onSubmit={onVerify} noValidate>
            <Group align="flex-start" gap="sm" wrap="wrap">
              <TextInput
                label="Verification code"
                description={`The ${VERIFICATION_CODE_DIGITS} digits sent to ${sentTo}`}
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={VERIFICATION_CODE_DIGITS}
                value={code}
                onChange={(event) => {
                  setCode(event.currentTarget.value);
                  setCodeError(null);
                }}
                error={codeError}
                style={{ flex: '1 1 220px' }}
              />
              <Button type="submit" disabled={busy !== null} mt={{ base: 0, xs: 46 }}>
                {busy === 'verify' ? 'Verifying...' : 'Verify'}
              </Button>
            </Group>
          </form>
        )}
        <StatusLine status={shown} label="SMS verification status" />
      </Stack>
    </Paper>
  );
}
