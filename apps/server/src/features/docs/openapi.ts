/**
 * The OpenAPI 3.1 document of every call, generated from the endpoint declarations the routes were
 * registered with (packages/core/src/endpoints, lib/endpoint.ts), and served at GET /api/docs (behind
 * the token, like every call but login, forgot-password and health).
 */
import type { FastifyInstance } from 'fastify';
import { z, type ZodType } from 'zod';
import { docsEndpoints, errorBody, type Endpoint, type ErrorStatus } from '@signalboard/core';
import { route } from '../../lib/endpoint';
import { APP_VERSION } from '../health/health.routes';

/** What each error status means here; every one answers `{ msg }` (errorBody). */
const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'Bad input: `msg` says what is wrong',
  401: 'Auth token missing, invalid or expired (login: wrong e-mail or password)',
  403: "The account is deactivated (login), the call is not this account's to make, the session signed in with a temporary or initial password must change it first (`code: password_change_required`), or the installation requires two-factor sign-in and the session must turn it on first (`code: two_factor_setup_required`)",
  404: 'Unknown symbol, a listed symbol with no price history, or no such idea, account or session',
  409: 'Refused: it would leave the installation without an active admin, or two-factor sign-in is already on',
  413: 'The request body, attachment or text to analyse is too large',
  415: 'Unsupported content type',
  429: 'Too many attempts, codes or costly calls; `retry-after` says when to try again where it is known',
  502: 'The upstream provider (market data, mail, SMS, AI analyst) failed or timed out and nothing is cached',
  503: 'No configured source provides this data (`msg` names the setting to add), or the server is busy (`retry-after` says when to try again)',
};

/** Every error status `op` can answer, ascending: its kind's, plus its own. */
export function errorStatuses(op: Endpoint): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(op.errors ?? []);
  const carriesBody = op.method === 'post' || op.method === 'put';
  if (op.query || op.params || op.body || carriesBody) statuses.add(400); // a POST or PUT may carry a malformed body
  if (!op.open) statuses.add(401);
  // A session at its first login, or one that must turn two-factor on (docs/accounts.md): refused all but the calls it may make.
  if (!op.open && !(op.duringFirstLogin && op.duringTwoFactorSetup)) statuses.add(403);
  if (carriesBody) {
    statuses.add(413);
    statuses.add(415);
  }
  return [...statuses].sort((a, b) => a - b);
}

const RESPONSE_MEDIA_TYPES = { json: 'application/json', ndjson: 'application/x-ndjson', csv: 'text/csv', html: 'text/html', xml: 'text/xml' } as const;

/** The success answer: 200 with the declared media type, or a redirect's 302 and its Location. */
const successResponse = (op: Endpoint) =>
  op.responseType === 'redirect'
    ? { 302: { description: 'Found: the browser goes on to `Location`', headers: { Location: { schema: { type: 'string' } } } } }
    : { 200: { description: 'OK', content: { [RESPONSE_MEDIA_TYPES[op.responseType ?? 'json']]: { schema: jsonSchema(op.response, 'output') } } } };

const jsonSchema = (schema: ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<string, unknown>;

/** The document of these endpoints (the registered ones: registeredEndpoints in lib/endpoint.ts). */
export function buildOpenApiDocument(endpoints: readonly Endpoint[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  const errorSchema = jsonSchema(errorBody, 'output');
  const error = (status: ErrorStatus) => ({ description: ERROR_DESCRIPTIONS[status], content: { 'application/json': { schema: errorSchema } } });
  for (const op of endpoints) {
    const parameters = op.query
      ? Object.entries((jsonSchema(op.query, 'input').properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({
          name,
          in: 'query',
          required: ((jsonSchema(op.query!, 'input').required ?? []) as string[]).includes(name),
          schema,
        }))
      : undefined;
    const pathParameters = op.params
      ? Object.entries((jsonSchema(op.params, 'input').properties ?? {}) as Record<string, unknown>).map(([name, schema]) => ({ name, in: 'path', required: true, schema }))
      : [];
    const allParameters = [...pathParameters, ...(parameters ?? [])];
    const mediaType = op.bodyType === 'multipart' ? 'multipart/form-data' : op.bodyType === 'form' ? 'application/x-www-form-urlencoded' : op.bodyType === 'csv' ? 'text/csv' : 'application/json';
    const content = op.bodyType === 'form' ? { [mediaType]: { schema: jsonSchema(op.body!, 'input') }, 'multipart/form-data': { schema: jsonSchema(op.body!, 'input') } } : op.body ? { [mediaType]: { schema: jsonSchema(op.body, 'input') } } : undefined;
    paths[op.path] = {
      ...(paths[op.path] ?? {}),
      [op.method]: {
        operationId: op.operationId,
        summary: op.summary,
        security: op.open ? [] : [{ bearer: [] }],
        ...(op.changesAccount ? { 'x-changes-account': true } : {}),
        ...(op.streamsUntilClosed ? { 'x-streams-until-closed': true } : {}),
        ...(allParameters.length > 0 ? { parameters: allParameters } : {}),
        ...(content ? { requestBody: { required: true, content } } : {}),
        responses: {
          ...successResponse(op),
          ...Object.fromEntries(errorStatuses(op).map((status) => [status, error(status)])),
          ...(op.alsoAnswers ? { [op.alsoAnswers.status]: { description: op.alsoAnswers.description, content: { 'application/json': { schema: jsonSchema(op.response, 'output') } } } } : {}),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Signalboard API', version: APP_VERSION, description: 'Errors answer JSON with a `msg` (and `error` where the spec says so).' },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
    paths,
  };
}

/** GET api/docs: the document of `endpoints`, built on the first request (every route is registered by then). */
export async function docsRoutes(app: FastifyInstance, options: { endpoints: readonly Endpoint[] }) {
  let document: Record<string, unknown> | undefined;
  route(app, docsEndpoints.getOpenApiDocument, async () => (document ??= buildOpenApiDocument(options.endpoints)));
}
