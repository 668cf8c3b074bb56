import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../test/helpers';
import { lazyChildLoggerFactory } from './request-logger';

function collect() {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { lines, stream };
}

describe('the per-request logger', () => {
  it('is made on the first line at an enabled level: with the reqId, redacted, nothing below the level', async () => {
    const { lines, stream } = collect();
    const logger = pino({ level: 'warn', redact: ['*.password'] }, stream);
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLoggerFactory });
    app.get('/quiet', async (request) => {
      request.log.info('not at warn');
      request.log.debug({ detail: 1 }, 'nor this');
      return { level: request.log.level };
    });
    app.get('/loud', async (request) => {
      request.log.warn({ body: { password: 'hunter2', user: 'a' } }, 'something odd');
      request.log.error('and worse');
      return {};
    });
    await app.ready();
    const child = vi.spyOn(logger, 'child');
    try {
      const quiet = await app.inject({ method: 'GET', url: '/quiet', headers: { 'x-request-id': 'q1' } });
      expect(quiet.json()).toEqual({ level: 'warn' });
      expect(child).not.toHaveBeenCalled();
      expect(lines).toEqual([]);

      await app.inject({ method: 'GET', url: '/loud' });
      expect(child).toHaveBeenCalledTimes(1);
      expect(lines.map((line) => [line.msg, typeof line.reqId])).toEqual([
        ['something odd', 'string'],
        ['and worse', 'string'],
      ]);
      expect(lines[0]!.reqId).toBe(lines[1]!.reqId);
      expect(lines[0]!.body).toEqual({ password: '[Redacted]', user: 'a' });
    } finally {
      await app.close();
    }
  });
});

describe('requests that log nothing at the installation level', () => {
  let t: TestApp;
  const { lines, stream } = collect();
  beforeAll(async () => {
    t = await createTestApp({}, { logger: { level: 'warn', stream } });
  });
  afterAll(async () => t.close());

  it('make no logger of their own (an authenticated read costs no pino child)', async () => {
    const email = uniqueEmail('quiet-log');
    await createUser(t.db, email, 'pw');
    const headers = await login(t.app, email, 'pw');
    const child = vi.spyOn(t.app.log, 'child');
    for (let i = 0; i < 5; i += 1) {
      expect((await t.app.inject({ method: 'GET', url: '/api/getemail', headers })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    }
    expect(child).not.toHaveBeenCalled();
    expect(lines).toEqual([]);
  });
});
