import { describe, expect, inject, it } from 'vitest';

// The suite's server: each leg tests the PostgreSQL it names (test/global-setup.ts).
describe('the test database server', () => {
  it.runIf(process.env.SB_TEST_DATABASE === 'external')('is the server at DATABASE_URL in the external leg', () => {
    expect(new URL(inject('adminUrl')).host).toBe(new URL(process.env.DATABASE_URL!).host);
  });

  it.runIf(process.env.SB_TEST_DATABASE !== 'external')('is an embedded server of the run, never DATABASE_URL, in the embedded leg', () => {
    const admin = new URL(inject('adminUrl'));
    expect(admin.hostname).toBe('127.0.0.1');
    if (process.env.DATABASE_URL) expect(admin.host).not.toBe(new URL(process.env.DATABASE_URL).host);
  });
});
