import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers';
import { REQUEST_ID_PATTERN, requestIdOf } from './request-id';

/** newRequestId: this process's 12-hex prefix and a base-36 counter. */
const NEW_ID = /^[0-9a-f]{12}-[0-9a-z]+$/;

describe('request ids', () => {
  let t: TestApp;
  const lines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
        done();
      },
    });
    t = await createTestApp({}, { logger: { level: 'info', stream } });
  });
  afterAll(async () => t.close());

  it('keeps a well-formed x-request-id, echoes it and logs it as reqId', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-request-id': 'proxy-req.42_A' } });
    expect(response.headers['x-request-id']).toBe('proxy-req.42_A');
    expect(lines.some((line) => line.reqId === 'proxy-req.42_A' && line.msg === 'incoming request')).toBe(true);
    expect(lines.some((line) => line.reqId === 'proxy-req.42_A' && line.msg === 'request completed')).toBe(true);
  });

  it('answers a fresh id for a missing or malformed one, also on errors', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(missing.headers['x-request-id']).toMatch(NEW_ID);
    for (const bad of ['has space', 'x'.repeat(65), 'semi;colon', '']) {
      const response = await t.app.inject({ method: 'GET', url: '/api/getemail', headers: { 'x-request-id': bad } });
      expect(response.statusCode).toBe(401);
      expect(response.headers['x-request-id'], bad).toMatch(NEW_ID);
    }
    const other = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(other.headers['x-request-id']).not.toBe(missing.headers['x-request-id']);
    expect(String(other.headers['x-request-id'])).toMatch(REQUEST_ID_PATTERN);
  });
});

describe('requestIdOf', () => {
  it("answers the request's id (what job data carries)", () => {
    expect(requestIdOf({ id: 'abc-1' })).toBe('abc-1');
  });
});
