/**
 * Custom scans (issue 26, docs/custom-scans.md): `GET api/scans/fields`, the field catalogue the
 * web's builder and formula editor read (packages/core/src/custom-scans/fields.ts).
 */
import type { FastifyInstance } from 'fastify';
import { customScansEndpoints, SCAN_FIELDS, type ScanFieldsResponse } from '@signalboard/core';
import { route } from '../../lib/endpoint';

/** The catalogue never changes while the process runs: one answer object, built once. */
const FIELDS_ANSWER: ScanFieldsResponse = {
  fields: SCAN_FIELDS.map((spec) => ({
    ...spec,
    params: spec.params.map(({ name, default: fallback, min, max, choices }) => ({ name, default: fallback, min, max, ...(choices ? { choices: [...choices] } : {}) })),
  })),
};

export async function customScansRoutes(app: FastifyInstance) {
  route(app, customScansEndpoints.getScanFields, async (): Promise<ScanFieldsResponse> => FIELDS_ANSWER);
}
