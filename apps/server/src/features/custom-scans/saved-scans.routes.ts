/**
 * The signed-in user's saved scans: GET/POST api/scans, GET/PUT/DELETE api/scans/{id}. A scan comes
 * in as a formula or as the builder's groups, is parsed once (scanDefinitionOf) and stored as its
 * canonical formula; every answer gives both forms. Another user's scan and an unknown id are the
 * same 404, so an answer never tells that someone else's scan exists.
 */
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import {
  customScansEndpoints,
  MAX_SAVED_SCANS,
  SCAN_TEMPLATES,
  type saveScanRequest,
  scanIdParams,
  type ListScansResponse,
  type SavedScan,
  type SaveScanResponse,
  type ScanTemplate,
} from '@signalboard/core';
import { badRequest, HttpError, parseInput } from '../../lib/errors';
import { route } from '../../lib/endpoint';
import type { Database } from '../../db/client';
import { createSavedScansRepo, type SavedScanFields, type SavedScanRow, type SaveResult } from './saved-scans.repo';
import { scanDefinitionOf, storedDefinition } from './scan-definition';

type SaveScanInput = z.output<typeof saveScanRequest>;

const NO_SUCH_SCAN = 'No such scan.';
const LIMIT_MESSAGE = `You can keep at most ${MAX_SAVED_SCANS} saved scans. Delete one to save another.`;

/** The starter scans never change while the process runs: parsed once, at the first list. */
let templates: ScanTemplate[] | undefined;
const scanTemplates = (): ScanTemplate[] =>
  (templates ??= SCAN_TEMPLATES.map(({ key, name, description, universe, formula }) => ({ key, name, description, universe, formula, conditions: storedDefinition(formula).conditions })));

function savedScan(row: SavedScanRow): SavedScan {
  return {
    id: row.id,
    name: row.name,
    universe: row.universe,
    formula: row.formula,
    conditions: storedDefinition(row.formula).conditions,
    version: row.version,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A write's row as the answer, or the 400/404 that says why it was refused. */
function saved(result: SaveResult, name: string): SaveScanResponse {
  if ('row' in result) return { msg: `Saved "${result.row.name}".`, scan: savedScan(result.row) };
  switch (result.refused) {
    case 'limit':
      throw badRequest(LIMIT_MESSAGE);
    case 'duplicate-name':
      throw badRequest(`You already have a scan named "${name}".`);
    case 'missing':
      throw new HttpError(404, NO_SUCH_SCAN);
  }
}

/** `deps`: the database (CustomScansDeps gives it; importing that type here would be a cycle). */
export async function savedScansRoutes(app: FastifyInstance, deps: { db: Database }) {
  const repo = createSavedScansRepo(deps.db);

  /** What a save stores: the scan parsed (400 with the parser's msg when it is no scan) and printed canonically. */
  const fieldsOf = (input: SaveScanInput): SavedScanFields => ({ name: input.name, universe: input.universe, formula: scanDefinitionOf(input).formula });

  route(app, customScansEndpoints.listScans, async (request): Promise<ListScansResponse> => ({
    scans: (await repo.list(request.user.id)).map(savedScan),
    templates: scanTemplates(),
    limit: MAX_SAVED_SCANS,
  }));

  route(app, customScansEndpoints.createScan, async (request, _reply, input): Promise<SaveScanResponse> => {
    return saved(await repo.create(request.user.id, fieldsOf(input)), input.name);
  });

  route(app, customScansEndpoints.getScan, async (request, _reply, { id }) => {
    const row = await repo.get(request.user.id, id);
    if (!row) throw new HttpError(404, NO_SUCH_SCAN);
    return { scan: savedScan(row) };
  });

  route(app, customScansEndpoints.updateScan, { parse: 'body' }, async (request, _reply, input): Promise<SaveScanResponse> => {
    const { id } = parseInput(scanIdParams, request.params);
    return saved(await repo.update(request.user.id, id, fieldsOf(input)), input.name);
  });

  route(app, customScansEndpoints.deleteScan, async (request, _reply, { id }) => {
    const name = await repo.remove(request.user.id, id);
    if (name === undefined) throw new HttpError(404, NO_SUCH_SCAN);
    return { msg: `Deleted "${name}".` };
  });
}
