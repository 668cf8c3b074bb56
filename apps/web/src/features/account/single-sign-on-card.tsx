import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { oidcErrorMessage, oidcLinkedMessage, type OidcIdentity } from '@signalboard/core';
import { IconLink } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { formatMediumDate } from '../../components/format';
import { notifyError, notifySuccess } from '../../components/notify';
import { ListError } from '../../components/trade-ideas/list-states';
import { messageOf } from '../../lib/client';
import { useOidcReturn } from '../../lib/oidc-return';
import { TONE } from '../../theme';
import { oidcIdentitiesQuery, useOidcLink, useOidcUnlink } from './api/oidc';

export const SINGLE_SIGN_ON_TITLE = 'Single sign-on';
export const unlinkQuestion = (email: string) => `Unlink ${email}? You will no longer be able to sign in with it.`;

const at = (iso: string) => formatMediumDate(Date.parse(iso) / 1000);

/**
 * The Single sign-on card of the Account screen (issue 28; docs/accounts.md "Single sign-on"): the
 * provider accounts linked to this one, Unlink, and "Link your … account" (off to the provider, back
 * to /dashboard/account#oidc=linked or #oidc_error=…). Not shown on an installation without a provider.
 */
export function SingleSignOnCard() {
  const identities = useQuery(oidcIdentitiesQuery());
  const link = useOidcLink();
  const unlink = useOidcUnlink();
  const oidcReturn = useOidcReturn();
  // `#oidc=linked` or `#oidc_error=<reason>`: what came of a link, said until dismissed.
  const [notice, setNotice] = useState(() => (oidcReturn?.kind === 'oidc' && oidcReturn.value !== 'linked' ? null : oidcReturn));
  const [confirming, setConfirming] = useState<OidcIdentity | null>(null);
  const [leaving, setLeaving] = useState(false);

  // Until the answer says the installation has a provider, nothing (most have none): not even an empty box in the screen's stack.
  if (identities.isPending || (identities.data && !identities.data.configured)) return null;
  const label = identities.data?.label ?? '';

  async function onLink() {
    try {
      const { url } = await link.mutateAsync();
      setLeaving(true);
      window.location.assign(url);
    } catch (error) {
      notifyError(messageOf(error));
    }
  }

  async function onUnlink(identity: OidcIdentity) {
    try {
      notifySuccess((await unlink.mutateAsync(identity.id)).msg);
    } catch (error) {
      notifyError(messageOf(error));
    }
  }

  return (
    <Paper withBorder p="lg" radius="lg" maw={720} component="section" aria-label={SINGLE_SIGN_ON_TITLE}>
      <Stack gap="md">
        <Group justify="space-between" gap="sm" align="flex-start">
          <Stack gap={4} maw={560}>
            <Title order={2} size="h4">
              {SINGLE_SIGN_ON_TITLE}
            </Title>
            {identities.data && (
              <Text size="sm" c="dimmed">
                Sign in with your {label} account instead of your password.
              </Text>
            )}
          </Stack>
          {identities.data && (
            <Button variant="light" leftSection={<IconLink size={16} />} loading={link.isPending || leaving} onClick={() => void onLink()}>
              Link your {label} account
            </Button>
          )}
        </Group>
        {identities.data && notice && (
          <Alert
            color={notice.kind === 'error' ? TONE.failure : TONE.success}
            variant="light"
            withCloseButton
            closeButtonLabel="Dismiss"
            onClose={() => setNotice(null)}
          >
            {notice.kind === 'error' ? oidcErrorMessage(notice.reason, label) : oidcLinkedMessage(label)}
          </Alert>
        )}
        {identities.isError && (
          <ListError title="Single sign-on could not be loaded" message={messageOf(identities.error)} onRetry={() => void identities.refetch()} retrying={identities.isFetching} />
        )}
        {identities.data &&
          (identities.data.identities.length === 0 ? (
            <Text size="sm">No {label} account is linked yet.</Text>
          ) : (
            <Stack gap="xs" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label={`Linked ${label} accounts`}>
              {identities.data.identities.map((identity) => (
                <IdentityRow key={identity.id} identity={identity} unlinking={unlink.isPending && unlink.variables === identity.id} onUnlink={() => setConfirming(identity)} />
              ))}
            </Stack>
          ))}
      </Stack>
      <ConfirmDialog
        opened={confirming !== null}
        question={confirming ? unlinkQuestion(confirming.email) : ''}
        confirmLabel="Unlink"
        onCancel={() => setConfirming(null)}
        onConfirm={() => {
          const identity = confirming;
          setConfirming(null);
          if (identity) void onUnlink(identity);
        }}
      />
    </Paper>
  );
}

function IdentityRow({ identity, unlinking, onUnlink }: { identity: OidcIdentity; unlinking: boolean; onUnlink: () => void }) {
  return (
    <Paper component="li" withBorder p="sm" radius="md" aria-label={identity.email}>
      <Group justify="space-between" wrap="nowrap" gap="sm">
        <Stack gap={2} miw={0}>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {identity.email}
          </Text>
          <Text size="sm" c="dimmed">
            Linked {at(identity.linked_at)} · {identity.last_used_at ? `Last used ${at(identity.last_used_at)}` : 'Never used to sign in'}
          </Text>
        </Stack>
        <Button variant="default" size="xs" style={{ flexShrink: 0 }} onClick={onUnlink} loading={unlinking} aria-label={`Unlink ${identity.email}`}>
          Unlink
        </Button>
      </Group>
    </Paper>
  );
}
