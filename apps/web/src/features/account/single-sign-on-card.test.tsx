import { notifications } from '@mantine/notifications';
import { oidcErrorMessage, oidcLinkedMessage } from '@signalboard/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTurn, mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { oidcIdentitiesQuery } from './api/oidc';
import { SingleSignOnCard, unlinkQuestion } from './single-sign-on-card';

afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
  window.history.replaceState(null, '', '/');
});

const WORK = { id: 'l-work', email: 'ann@work.example', linked_at: '2026-11-02T09:00:00.000Z', last_used_at: '2026-12-03T08:15:00.000Z' };
const OTHER = { id: 'l-other', email: 'ann@other.example', linked_at: '2026-12-01T10:00:00.000Z', last_used_at: null };
const identities = (...list: (typeof WORK | typeof OTHER)[]) => ({ body: { configured: true, label: 'Acme SSO', identities: list } });

/** The card at `/dashboard/account<hash>`, as the server's redirect after the provider leaves it. */
function renderCard(hash = '') {
  window.history.replaceState(null, '', `/dashboard/account${hash}`);
  const client = new QueryClient();
  const rendered = renderScreen(
    <QueryClientProvider client={client}>
      <SingleSignOnCard />
    </QueryClientProvider>,
    '/dashboard/account',
  );
  /** Once the identities' answer is in (a card that shows nothing shows nothing to wait for). */
  const answered = async () => {
    await waitFor(() => expect(client.getQueryState(oidcIdentitiesQuery().queryKey)?.status).not.toBe('pending'));
    await act(async () => undefined); // the answer's render
  };
  return { ...rendered, answered };
}

describe('SingleSignOnCard', { timeout: 15_000 }, () => {
  it('lists the linked accounts, when each was linked and last used', async () => {
    mockApi({ 'GET oidc/identities': identities(WORK, OTHER) });
    renderCard();
    const card = await screen.findByRole('region', { name: 'Single sign-on' });
    const list = within(card).getByRole('list', { name: 'Linked Acme SSO accounts' });
    const work = within(list).getByRole('listitem', { name: 'ann@work.example' });
    expect(work).toHaveTextContent(/Linked .*2026.* · Last used .*2026/);
    expect(within(list).getByRole('listitem', { name: 'ann@other.example' })).toHaveTextContent('Never used to sign in');
    expect(within(card).getByRole('button', { name: 'Link your Acme SSO account' })).toBeInTheDocument();
  });

  it('unlinks after a confirm; Cancel unlinks nothing', async () => {
    const api = mockApi({
      'GET oidc/identities': inTurn(identities(WORK, OTHER), identities(OTHER)),
      'POST oidc/unlink': { body: { msg: 'The Acme SSO account is unlinked.' } },
    });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Unlink ann@work.example' }));
    expect(await screen.findByText(unlinkQuestion('ann@work.example'))).toBeInTheDocument();
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('oidc/unlink')).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: 'Unlink ann@work.example' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('The Acme SSO account is unlinked.')).toBeInTheDocument();
    expect(api.callsTo('oidc/unlink').map((call) => call.body)).toEqual([{ id: 'l-work' }]);
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'ann@work.example' })).toBeNull());
    expect(screen.getByRole('listitem', { name: 'ann@other.example' })).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's refusal to unlink the only way to sign in", async () => {
    mockApi({
      'GET oidc/identities': identities(WORK),
      'POST oidc/unlink': { status: 409, body: { msg: 'This is the only way this account can sign in: set a password first.' } },
    });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Unlink ann@work.example' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Unlink' }));
    expect(await screen.findByText('This is the only way this account can sign in: set a password first.')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'ann@work.example' })).toBeInTheDocument();
  });

  it('"Link your … account" sends the browser to the provider', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign }); // jsdom does not navigate
    const api = mockApi({ 'GET oidc/identities': identities(), 'POST oidc/link': { body: { url: 'https://idp.example.com/authorize?state=l' } } });
    renderCard();
    expect(await screen.findByText('No Acme SSO account is linked yet.')).toBeInTheDocument();
    expect(screen.queryByRole('list')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Link your Acme SSO account' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://idp.example.com/authorize?state=l'));
    expect(api.callsTo('oidc/link')).toHaveLength(1);
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's msg when a link cannot start", async () => {
    mockApi({ 'GET oidc/identities': identities(), 'POST oidc/link': { status: 502, body: { msg: 'The sign-in provider did not answer. Please try again.' } } });
    renderCard();
    await userEvent.click(await screen.findByRole('button', { name: 'Link your Acme SSO account' }));
    expect(await screen.findByText('The sign-in provider did not answer. Please try again.')).toBeInTheDocument();
  });

  it('says the link is made on `#oidc=linked`, and removes the hash', async () => {
    mockApi({ 'GET oidc/identities': identities(WORK) });
    renderCard('#oidc=linked');
    expect(await screen.findByText(oidcLinkedMessage('Acme SSO'))).toBeInTheDocument();
    expect(screen.getByText('Your Acme SSO account is linked: you can sign in with it.')).toBeInTheDocument();
    expect(window.location.hash).toBe('');
    expect(window.location.pathname).toBe('/dashboard/account');
    await userEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(oidcLinkedMessage('Acme SSO'))).toBeNull();
  });

  it('says why on `#oidc_error=…`, and removes the hash', async () => {
    mockApi({ 'GET oidc/identities': identities() });
    renderCard('#oidc_error=already_linked');
    expect(await screen.findByText(oidcErrorMessage('already_linked', 'Acme SSO'))).toBeInTheDocument();
    expect(screen.getByText('That Acme SSO account is already linked to another Signalboard account.')).toBeInTheDocument();
    expect(window.location.hash).toBe('');
  });

  it('is not shown on an installation without single sign-on', async () => {
    const api = mockApi({ 'GET oidc/identities': { body: { configured: false, label: '', identities: [] } } });
    const { container, answered } = renderCard('#oidc_error=not_configured');
    await answered();
    expect(api.callsTo('oidc/identities')).toHaveLength(1);
    expect(screen.queryByRole('region', { name: 'Single sign-on' })).toBeNull();
    expect(screen.queryByText('Single sign-on')).toBeNull();
    expect(container).not.toHaveTextContent(/sign/i);
    expect(window.location.hash).toBe('');
  });

  it('says so, with a Retry, when it cannot be loaded', async () => {
    mockApi({ 'GET oidc/identities': inTurn({ status: 503, body: { msg: 'The database is unavailable right now. Please try again shortly.' } }, identities(WORK)) });
    renderCard();
    expect(await screen.findByText('Single sign-on could not be loaded')).toBeInTheDocument();
    expect(screen.getByText('The database is unavailable right now. Please try again shortly.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('listitem', { name: 'ann@work.example' })).toBeInTheDocument();
  });
});
