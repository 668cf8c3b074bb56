import '@mantine/core/styles/Switch.layer.css';
import { Skeleton, Stack, Switch, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { notifyError, notifySuccess } from '../../components/notify';
import { ListError } from '../../components/trade-ideas/list-states';
import { messageOf } from '../../lib/client';
import { adminSettingsQuery, useRequireTwoFactor } from './api/two-factor-policy';
import { AdminCard } from './admin-card';

export const REQUIRE_TWO_FACTOR_LABEL = 'Require two-factor sign-in for everyone';

const questionOf = (required: boolean) =>
  required
    ? 'Require two-factor sign-in for everyone? Each account without it is led to turn it on at its next sign-in, and nobody can turn it off.'
    : 'Stop requiring two-factor sign-in? Accounts that have it keep it; the others may sign in with their password alone.';

/** Administration's sign-in policy (issue 28; docs/accounts.md "Two-factor sign-in"): the switch asks before it changes. */
export function TwoFactorPolicyCard() {
  const settings = useQuery(adminSettingsQuery());
  const change = useRequireTwoFactor();
  const [asking, setAsking] = useState<boolean | null>(null);

  async function apply(required: boolean) {
    setAsking(null);
    try {
      notifySuccess((await change.mutateAsync(required)).msg);
    } catch (error) {
      notifyError(messageOf(error));
    }
  }

  return (
    <AdminCard title="Sign-in" description="How the accounts of this installation sign in.">
      {settings.isPending && <Skeleton h={24} w={320} aria-label="Loading the sign-in settings" />}
      {settings.isError && <ListError title="The sign-in settings could not be loaded" message={messageOf(settings.error)} onRetry={() => void settings.refetch()} retrying={settings.isFetching} />}
      {settings.data && (
        <Stack gap={4}>
          <Switch
            label={REQUIRE_TWO_FACTOR_LABEL}
            checked={settings.data.two_factor_required}
            disabled={change.isPending}
            onChange={(event) => setAsking(event.currentTarget.checked)}
          />
          <Text size="xs" c="dimmed">
            An account without it is led to turn it on at its next sign-in; while it is required, nobody can turn theirs off.
          </Text>
        </Stack>
      )}
      <ConfirmDialog
        opened={asking !== null}
        question={asking === null ? '' : questionOf(asking)}
        confirmLabel={asking ? 'Require it' : 'Stop requiring it'}
        onConfirm={() => void apply(asking ?? false)}
        onCancel={() => setAsking(null)}
      />
    </AdminCard>
  );
}
