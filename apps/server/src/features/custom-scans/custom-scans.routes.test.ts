import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanFieldsResponse, SCAN_FIELDS, scanField } from '@signalboard/core';
import { createTestApp, userWithFavorites, type TestApp } from '../../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t.close());

describe('GET api/scans/fields', () => {
  it('answers the catalogue the builder and the formula parser share, behind the token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/scans/fields' })).statusCode).toBe(401);
    const headers = await userWithFavorites(t, 'scan-fields', []);
    const response = await t.app.inject({ method: 'GET', url: '/api/scans/fields', headers });
    expect(response.statusCode).toBe(200);
    const { fields } = scanFieldsResponse.parse(response.json());
    expect(fields.map((field) => field.name)).toEqual(SCAN_FIELDS.map((field) => field.name));
    // Every field the parser resolves is in the answer, with its parameters' defaults and ranges.
    const rsi = fields.find((field) => field.name === 'rsi')!;
    expect(rsi).toMatchObject({ label: 'RSI', unit: 'points', kind: 'number', source: 'bars', params: [{ name: 'period', default: 14, min: 2, max: 100 }] });
    expect(fields.find((field) => field.name === 'pct_below_high')!.params[0]!.choices).toEqual([21, 63, 126, 252]);
    for (const field of fields) expect(scanField(field.name.toUpperCase())?.name).toBe(field.name);
  });
});
