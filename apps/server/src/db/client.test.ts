import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/helpers';
import { isDatabaseUnavailable } from './errors';

describe('the pool when the server drops its connections', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => database.drop());

  async function terminate(pid: number): Promise<void> {
    const admin = new pg.Client({ connectionString: database.url });
    await admin.connect();
    try {
      await admin.query('select pg_terminate_backend($1)', [pid]);
    } finally {
      await admin.end();
    }
  }

  // A restarting server ends every session with 57P01. A connection checked out of the pool (a
  // transaction between two statements, the LISTEN connection) has no listener of the pool's own:
  // its 'error' event would be unhandled and end the process.
  it('a checked-out connection terminated between two statements fails its transaction, not the process', async () => {
    let backendPid = 0;
    let closedSeen = false;
    const outcome = database.db
      .transaction(async (tx) => {
        const { rows } = await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`);
        backendPid = rows[0]!.pid;
        // Between two statements: the connection is idle in this transaction when it is terminated.
        await expect.poll(() => closedSeen, { timeout: 10_000 }).toBe(true);
        await tx.execute(sql`select 1`);
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await expect.poll(() => backendPid, { timeout: 10_000 }).not.toBe(0);
    const client = (database.pool as unknown as { _clients: pg.Client[] })._clients.find((each) => (each as unknown as { processID: number }).processID === backendPid)!;
    const ended = new Promise((resolve) => client.once('end', resolve));
    await terminate(backendPid);
    await ended;
    closedSeen = true;
    const error = await outcome;
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
    // The broken connection left the pool; the next query gets a new one.
    const { rows } = await database.pool.query<{ one: number }>('select 1 as one');
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('an idle connection terminated in the pool is replaced on the next query', async () => {
    const { rows } = await database.pool.query<{ pid: number }>('select pg_backend_pid() as pid');
    await terminate(rows[0]!.pid);
    await expect.poll(async () => (await database.pool.query<{ one: number }>('select 1 as one')).rows, { timeout: 10_000 }).toEqual([{ one: 1 }]);
  });
});

describe('isDatabaseUnavailable', () => {
  it('knows the errors of a database that is gone, restarting or unreachable', () => {
    const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '08003', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']) {
      expect(isDatabaseUnavailable(withCode(code)), code).toBe(true);
    }
    expect(isDatabaseUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Connection terminated due to connection timeout'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
    // drizzle wraps the driver's error
    expect(isDatabaseUnavailable(new Error('Failed query: select 1', { cause: withCode('57P01') }))).toBe(true);
    for (const code of ['23505', '42P01', '40001', '22P02']) expect(isDatabaseUnavailable(withCode(code)), code).toBe(false);
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
