/**
 * The per-address sign-in limit behind a reverse proxy (TRUST_PROXY): a listed proxy's
 * X-Forwarded-For names the client, so each client has its own count; any other sender's
 * X-Forwarded-For is ignored, so rotating it does not escape the count of its own address.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, uniqueEmail, type TestApp } from '../../../test/helpers';

const PROXY = '10.0.0.2';
const LIMIT = 50; // LOGIN_MAX_PER_ADDRESS's default

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ TRUST_PROXY: `${PROXY}, 10.0.1.0/24` });
});
afterAll(async () => t.close());

/** A sign-in attempt on an unknown e-mail (the per-e-mail limit stays out of the way). */
const attempt = (remoteAddress: string, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: { email: uniqueEmail('proxy'), password: 'wrong' },
    remoteAddress,
    headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor },
  });

async function expectAttempts(count: number, status: number, send: (i: number) => ReturnType<typeof attempt>) {
  for (let i = 0; i < count; i += 1) expect((await send(i)).statusCode, `attempt ${i + 1}`).toBe(status);
}

describe('sign-in limits behind a trusted proxy (TRUST_PROXY)', () => {
  it('gives each client the proxy forwards its own 50 attempts', async () => {
    await expectAttempts(LIMIT, 401, () => attempt(PROXY, '203.0.113.1'));
    const limited = await attempt(PROXY, '203.0.113.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    // Another client behind the same proxy is not locked out by the first one.
    await expectAttempts(LIMIT, 401, () => attempt(PROXY, '203.0.113.2'));
    expect((await attempt(PROXY, '203.0.113.2')).statusCode).toBe(429);
    // A client's own X-Forwarded-For, to which the proxy appends the address it saw, changes nothing.
    expect((await attempt(PROXY, '198.51.100.99, 203.0.113.1')).statusCode).toBe(429);
    // A proxy of a listed range counts the same client.
    expect((await attempt('10.0.1.7', '203.0.113.2')).statusCode).toBe(429);
  });

  it('ignores X-Forwarded-For from a sender that is not a listed proxy', async () => {
    const sender = '198.51.100.7';
    await expectAttempts(LIMIT, 401, (i) => attempt(sender, `192.0.2.${i + 1}`));
    const limited = await attempt(sender, '192.0.2.200');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().msg).toMatch(/^Too many login attempts/);
    // Nor does a forged chain naming a trusted proxy help.
    expect((await attempt(sender, `192.0.2.201, ${PROXY}`)).statusCode).toBe(429);
  });
});
