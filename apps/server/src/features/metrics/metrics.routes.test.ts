import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers';
import { metrics } from '../../lib/metrics';
import { bearerMatches } from './metrics.routes';
import { startMetricsServer, stopMetricsServer } from './metrics-server';

const TOKEN = 'metrics-token-0123456789abcdef';

describe('metrics off by default', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('answers GET /metrics 404 like any unknown path, token or not', async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }]) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ msg: 'Not found' });
    }
  });

  it('records no request latencies: nothing could read them', async () => {
    const healthCount = async () =>
      (await metrics.httpRequestDuration.get()).values.find((value) => value.metricName?.endsWith('_count') && value.labels.route === '/api/health' && value.labels.status === '200')?.value ?? 0;
    const before = await healthCount();
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(await healthCount()).toBe(before);
  });
});

describe('metrics behind METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ METRICS_TOKEN: TOKEN });
  });
  afterAll(async () => t.close());

  it('answers 401 with a msg without the token or with a wrong one', async () => {
    for (const authorization of [undefined, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, TOKEN, 'Bearer ']) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization === undefined ? {} : { authorization } });
      expect(response.statusCode, String(authorization)).toBe(401);
      expect(response.json()).toEqual({ msg: 'Metrics need Authorization: Bearer <METRICS_TOKEN>' });
      expect(response.body).not.toContain('signalboard_');
    }
  });

  it('answers the Prometheus text with the request latencies by route pattern, an unknown route as one label', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    await t.app.inject({ method: 'GET', url: '/api/no-such-call-123' });
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.body).toContain('# TYPE signalboard_http_request_duration_seconds histogram');
    expect(response.body).toMatch(/signalboard_http_request_duration_seconds_count\{[^}]*route="\/api\/health",method="GET",status="200"[^}]*\} [1-9]/);
    expect(response.body).toMatch(/signalboard_http_request_duration_seconds_count\{[^}]*route="unmatched",method="GET",status="404"[^}]*\} [1-9]/);
    expect(response.body).not.toContain('no-such-call-123');
  });

  it('names delivery statuses and the alert evaluation lag among the metrics', async () => {
    metrics.alertDeliveries.inc({ channel: 'sms', status: 'delivered' });
    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(response.body).toMatch(/signalboard_alert_deliveries_total\{channel="sms",status="delivered"[^}]*\} [1-9]/);
    expect(response.body).toContain('# TYPE signalboard_alert_evaluation_lag_seconds gauge');
  });
});

describe('bearerMatches', () => {
  it('takes only "Bearer <the token>"', () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
    expect(bearerMatches('Bearer x', TOKEN)).toBe(false);
  });
});

describe('the metrics port (METRICS_PORT)', () => {
  it('answers GET /metrics and 404 for anything else', async () => {
    const server = await startMetricsServer(0, '127.0.0.1');
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const ok = await fetch(`${base}/metrics`);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await ok.text()).toContain('signalboard_http_request_duration_seconds');
      const other = await fetch(`${base}/api/health`);
      expect(other.status).toBe(404);
      expect(await other.json()).toEqual({ msg: 'Not found: metrics are at GET /metrics' });
    } finally {
      await stopMetricsServer(server);
    }
  });
});
