import { notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { mockApi } from '../../test/mock-api';
import { renderScreen } from '../../test/render';
import { SUPPORT_FAILED, SupportScreen } from './support-screen';

// jsdom has no document.fonts, which the Body's autosizing Textarea listens to.
beforeAll(() => {
  if (!('fonts' in document)) Object.defineProperty(document, 'fonts', { configurable: true, value: { addEventListener: () => undefined, removeEventListener: () => undefined } });
});
afterEach(() => {
  vi.unstubAllGlobals();
  notifications.clean();
});

function renderSupport() {
  return renderScreen(
    <QueryClientProvider client={new QueryClient()}>
      <SupportScreen />
    </QueryClientProvider>,
  );
}

async function fillAndSend() {
  await userEvent.click(screen.getByLabelText(/Header/));
  await userEvent.paste('Help');
  await userEvent.click(screen.getByLabelText(/Body/));
  await userEvent.paste('Something broke');
  await userEvent.click(screen.getByRole('button', { name: 'Send Email' }));
}

describe('SupportScreen failures', { timeout: 15_000 }, () => {
  it("shows the spec's failure alert with the server's msg under it on a 429, and keeps the form", async () => {
    const limit = 'Too many support requests (at most 5 every hour). Please try again in 40 minutes.';
    const api = mockApi({ 'GET getemail': { body: { email: 'me@example.com' } }, 'POST contact-support': { status: 429, body: { msg: limit }, headers: { 'retry-after': '2400' } } });
    renderSupport();
    await fillAndSend();
    expect(await screen.findByText(limit)).toBeInTheDocument();
    expect(screen.getByText(SUPPORT_FAILED)).toBeInTheDocument();
    expect(screen.getByLabelText(/Header/)).toHaveValue('Help');
    expect(api.unhandled).toEqual([]);
  });

  it("shows the server's msg for a refused attachment (415)", async () => {
    const refused = 'The attachment must be an image (PNG, JPEG, GIF or WebP), a PDF or a plain text file (UTF-8).';
    const api = mockApi({ 'GET getemail': { body: { email: 'me@example.com' } }, 'POST contact-support': { status: 415, body: { msg: refused } } });
    renderSupport();
    await fillAndSend();
    expect(await screen.findByText(refused)).toBeInTheDocument();
    expect(screen.getByText(SUPPORT_FAILED)).toBeInTheDocument();
    expect(api.unhandled).toEqual([]);
  });

  it("shows only the spec's failure alert when the server cannot be reached", async () => {
    const api = mockApi({ 'GET getemail': { body: { email: 'me@example.com' } }, 'POST contact-support': { networkError: true } });
    renderSupport();
    await fillAndSend();
    expect(await screen.findByText(SUPPORT_FAILED)).toBeInTheDocument();
    expect(screen.queryByText(/Cannot reach the server/)).not.toBeInTheDocument();
    expect(api.callsTo('contact-support')).toHaveLength(1);
    expect(api.unhandled).toEqual([]);
  });
});
