/**
 * A property-based fuzz test of every call the OpenAPI document lists (fast-check, fixed seed).
 * The requests come from the document itself: its parameters and request bodies, their JSON
 * Schemas, examples and enums. A call added to the document is fuzzed with no change here, and the
 * first test fails if a registered /api route is missing from the document.
 *
 * Each call gets RUNS_PER_CALL requests that are mostly valid with one or more parts spoiled: wrong
 * types, missing and extra fields, huge strings, control characters, odd Unicode, NaN-ish numbers,
 * arrays for objects, bad query parameters and %-escapes, wrong and missing content types, empty and
 * broken bodies, bad tokens, other methods. Some run while the providers fail (market data, mail,
 * AI analyst). Every answer must hold:
 * - never 500; 502 or 503 only while a provider fault is injected;
 * - every 4xx/5xx body is JSON with a non-empty string `msg` (forgot-password: `error` too);
 * - the security headers are there;
 * - nothing is logged at error level (a failure in the background after a 200, say) unless a
 *   fault was injected.
 *
 * Calls marked `x-changes-account` (update-password, deactivate_user) run last, as a throwaway user.
 */
import { Writable } from 'node:stream';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_ENDPOINTS } from '@signalboard/core';
import { buildOpenApiDocument } from '../src/features/docs/openapi';
import type { Mailer } from '../src/providers/mail';
import { createCachedMarket } from '../src/providers/market/cached-market';
import { createSimulatedMarket } from '../src/providers/market/simulated/simulated-market';
import { ProviderError, type MarketData } from '../src/providers/market/types';
import { MailError } from '../src/providers/mail/types';
import { createTestApp, createUser, login, signJwt, uniqueEmail, userWithFavorites, type TestApp } from './helpers';
import { apiRoutes, openApiPath } from './routes';
import { SwitchableAnalyst } from './switchable-analyst';

/** Fixed, so a failure reproduces; each call's seed also depends on its path (adding a call changes no other). */
const SEED = 20_261_113;
const RUNS_PER_CALL = 100;
const MARKET_NOW = '2026-11-13T18:00:00Z';

// ---- The document ------------------------------------------------------------------------------

interface JsonSchema {
  type?: string;
  enum?: unknown[];
  examples?: unknown[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
}
interface DocOperation {
  security: unknown[];
  parameters?: Array<{ name: string; in: string; required: boolean; schema: JsonSchema }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  'x-changes-account'?: boolean;
  'x-streams-until-closed'?: boolean;
}
interface Call {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  op: DocOperation;
}

// The declarations' document: the one GET /api/docs serves (checked below and in openapi.test.ts).
const DOCUMENT = buildOpenApiDocument(ALL_ENDPOINTS) as { paths: Record<string, Record<string, DocOperation>> };

/** Every call of the document; those that change the account last. */
const CALLS: Call[] = Object.entries(DOCUMENT.paths)
  .flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ method: method.toUpperCase() as Call['method'], path, op })))
  .sort((a, b) => Number(a.op['x-changes-account'] ?? false) - Number(b.op['x-changes-account'] ?? false));

const seedOf = (call: Call) => [...`${call.method} ${call.path}`].reduce((hash, char) => (Math.imul(hash, 31) + char.charCodeAt(0)) | 0, SEED);

// ---- Values ------------------------------------------------------------------------------------

const ABSENT = Symbol('absent');
type Value = unknown;
/** How a value travels as text (a query parameter, a form field). */
const asText = (value: Value): string => (typeof value === 'string' ? value : JSON.stringify(value) ?? 'undefined');

const CONTROL_CHARACTERS = [...Array.from({ length: 0x20 }, (_, code) => String.fromCharCode(code)), '\u007f'];
const NASTY_TEXT = [
  '', ' ', '\t', ' \r\n ', 'NaN', 'Infinity', '-Infinity', '-0', '1e309', '0x1A', '1_000', '٣٤', '+5', '.5', '5.', '00012', '-1',
  'null', 'undefined', 'true', '[]', '{}', '__proto__', 'constructor', 'toString', "'; DROP TABLE users; --", '<script>alert(1)</script>',
  '../../etc/passwd', '%00', '%E0%A4%A', '\u202eevil', 'zero\u200bwidth', '\ufeffbom', '😀📈', '\ud800', 'x\udfffy', 'é', 'İ', 'ﬃ',
  'A'.repeat(21), 'A'.repeat(51), 'A'.repeat(256), '9'.repeat(400), '2026-02-30', '2026-13-01', '9999-12-31', '0000-01-01',
  '1794592800000', '2026-11-13T00:00:00Z', 'BRK.B', '^GSPC', 'btc', ' aapl ', 'ZZZZQ',
];
/** A control character; NUL (which PostgreSQL text cannot hold) as often as all the others. */
const controlCharacter = fc.oneof(fc.constant('\u0000'), fc.constantFrom(...CONTROL_CHARACTERS));
const controlText = fc.tuple(fc.string({ maxLength: 6 }), controlCharacter, fc.string({ maxLength: 6 })).map(([a, c, b]) => a + c + b);
const hugeText = fc.integer({ min: 1_000, max: 250_000 }).map((length) => 'x'.repeat(length));
const text: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...NASTY_TEXT) },
  { weight: 3, arbitrary: controlText },
  { weight: 2, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
  { weight: 1, arbitrary: hugeText },
);
const oddNumber = fc.oneof(fc.constantFrom(0, -0, -1, 0.5, 1.5, 1e21, -1e308, 1e308, 2 ** 53 + 1, 5e-324), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
const anyValue: fc.Arbitrary<Value> = fc.oneof(
  { weight: 3, arbitrary: text },
  { weight: 2, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constantFrom([], {}, [[]], [null], { '': '' }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
);

/** A value the schema accepts (mostly: a text example may still be refused by a rule the schema cannot say). */
function validValue(schema: JsonSchema): fc.Arbitrary<Value> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if (schema.examples?.length) return fc.constantFrom(...schema.examples);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(validValue));
  switch (schema.type) {
    case 'string':
      return schema.format === 'binary' ? fc.constant('file') : fc.string({ minLength: 1, maxLength: Math.min(schema.maxLength ?? 20, 20) });
    case 'number':
    case 'integer':
      return fc.integer({ min: 0, max: 100 });
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(validValue(schema.items ?? {}), { minLength: schema.minItems ?? 0, maxLength: Math.max(schema.minItems ?? 0, 3) });
    case 'object':
      return objectOf(schema, (property) => validValue(property), 0);
    default:
      return anyValue;
  }
}

/** A valid text gone slightly bad: a control character inside, whitespace around, too long, or cased otherwise. */
const corrupted = (valid: fc.Arbitrary<Value>): fc.Arbitrary<Value> =>
  fc.tuple(valid.map(asText), controlCharacter, fc.nat(), fc.constantFrom('inside', 'inside', 'around', 'whitespace', 'long', 'case')).map(([value, control, at, how]) => {
    const index = value.length === 0 ? 0 : at % (value.length + 1);
    if (how === 'inside') return `${value.slice(0, index)}${control}${value.slice(index)}`;
    if (how === 'around') return `${control}${value}${control}`;
    if (how === 'whitespace') return ` \t${value}\r\n `;
    if (how === 'long') return value.repeat(Math.ceil(300 / Math.max(value.length, 1)));
    return value.toLowerCase() === value ? value.toUpperCase() : value.toLowerCase();
  });

const isText = (schema: JsonSchema): boolean => schema.type === 'string' || (schema.anyOf ?? []).some(isText) || (schema.examples ?? []).some((example) => typeof example === 'string');

/** A value of the wrong kind (sometimes), or mostly of the right kind with one part gone bad. */
function spoiledValue(schema: JsonSchema): fc.Arbitrary<Value> {
  const specific: Array<fc.WeightedArbitrary<Value>> = [];
  if (isText(schema)) specific.push({ weight: 2, arbitrary: text }, { weight: 4, arbitrary: corrupted(validValue(schema)) });
  if (schema.type === 'array') {
    const item = schema.items ?? {};
    // Valid items with one spoiled among them, or one item too many.
    const oneBad = fc.tuple(fc.array(validValue(item), { maxLength: 3 }), spoiledValue(item), fc.nat()).map(([items, bad, at]) => {
      const copy = [...items];
      copy.splice(at % (items.length + 1), 0, bad);
      return copy;
    });
    specific.push({ weight: 6, arbitrary: oneBad }, { weight: 1, arbitrary: validValue(item).map((value) => Array.from({ length: (schema.maxItems ?? 500) + 1 }, () => value)) });
  }
  if (schema.type === 'object') specific.push({ weight: 6, arbitrary: objectOf(schema, (property) => fc.oneof(validValue(property), spoiledValue(property)), 1) });
  return fc.oneof({ weight: 2, arbitrary: anyValue }, ...specific);
}

/** An object of `schema`'s properties, each from `value` or left out (required ones mostly kept), sometimes with extra keys. */
function objectOf(schema: JsonSchema, value: (property: JsonSchema) => fc.Arbitrary<Value>, dropWeight: number): fc.Arbitrary<Record<string, Value>> {
  const entries = Object.entries(schema.properties ?? {});
  const required = new Set(schema.required ?? []);
  const fields = fc.tuple(
    ...entries.map(([name, property]) =>
      fc.oneof({ weight: 6, arbitrary: value(property) }, { weight: required.has(name) ? dropWeight : 3, arbitrary: fc.constant<Value>(ABSENT) }),
    ),
  );
  const extraKey = fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString'));
  const extras = fc.option(fc.array(fc.tuple(extraKey, anyValue), { maxLength: 2 }), { freq: 4 });
  return fc.tuple(fields, extras).map(([values, more]) => {
    const object: Record<string, Value> = {};
    // defineProperty: a "__proto__" key becomes a real key of the JSON, not the object's prototype.
    const put = (key: string, item: Value) => Object.defineProperty(object, key, { value: item, enumerable: true, writable: true, configurable: true });
    entries.forEach(([name], index) => values[index] !== ABSENT && put(name, values[index]));
    for (const [key, item] of more ?? []) put(key, item);
    return object;
  });
}

// ---- Requests ----------------------------------------------------------------------------------

type QueryPart = { name: string; value: string } | { raw: string };
type BodySpec =
  | { kind: 'json'; value: Value; contentType: string }
  | { kind: 'form'; value: Value }
  | { kind: 'multipart'; value: Value; file?: { field: string; name: string; type: string; size: number } }
  | { kind: 'raw'; contentType: string | undefined; payload: string };
type Auth = { kind: 'valid' } | { kind: 'none' } | { kind: 'header'; value: string };

interface RequestSpec {
  method: string;
  query: QueryPart[];
  body: BodySpec | undefined;
  auth: Auth;
  /** Whether the providers (market data, mail, AI analyst) fail during this request. */
  fault: boolean;
  address: string;
}


function queryFor(call: Call): fc.Arbitrary<QueryPart[]> {
  const parameters = (call.op.parameters ?? []).filter((parameter) => parameter.in === 'query');
  const perParameter = parameters.map(({ name, schema, required }) =>
    fc.oneof<fc.WeightedArbitrary<QueryPart[]>[]>(
      { weight: 6, arbitrary: validValue(schema).map((value) => [{ name, value: asText(value) }]) },
      { weight: 3, arbitrary: fc.oneof(text, corrupted(validValue(schema)).map(asText)).map((value) => [{ name, value }]) },
      { weight: required ? 1 : 3, arbitrary: fc.constant([]) },
      { weight: 1, arbitrary: fc.tuple(validValue(schema), validValue(schema)).map(([a, b]) => [{ name, value: asText(a) }, { name, value: asText(b) }]) },
      { weight: 1, arbitrary: validValue(schema).map((value) => [{ name: `${name}[x]`, value: asText(value) }]) },
      { weight: 1, arbitrary: fc.constantFrom<QueryPart[]>([{ raw: `${name}=%E0%A4%A` }], [{ raw: `${name}=%` }], [{ raw: `${name}=%00` }], [{ raw: name }], [{ raw: `${name}=` }]) },
    ),
  );
  const extra = fc.array(
    fc.oneof(
      fc.record({ name: fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor[prototype][x]', 'a[b][c]')), value: text }),
      fc.constantFrom<QueryPart>({ raw: '&&&' }, { raw: '=' }, { raw: '%' }, { raw: '%E0%A4%A=1' }, { raw: '?' }, { raw: '#' }),
    ),
    { maxLength: 2 },
  );
  return fc.tuple(fc.tuple(...perParameter), extra).map(([parts, more]) => [...parts.flat(), ...more]);
}

const GARBAGE_BODIES = [
  '', ' ', '{', '{"a":}', 'nul', '[', '\u0000', '{"a":"\\ud800"}', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}',
  `${'['.repeat(5_000)}${']'.repeat(5_000)}`, '"text"', '123', 'null', 'true', '[]', '\ufeff{}', '{"a":1}{"b":2}', 'a=%E0%A4%A&&=&b', '--x\r\n\r\n',
  '<?xml version="1.0"?><a/>',
];
const CONTENT_TYPES = [
  'application/json', 'application/json; charset=utf-8', 'Application/JSON', 'application/json; charset=latin1', 'application/json;', 'text/plain',
  'application/xml', 'application/octet-stream', 'image/png', 'multipart/form-data', 'multipart/form-data; boundary=zz', 'multipart/mixed; boundary=zz',
  'application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-16', 'text/html; charset=utf-8', '*/*', 'application/json, text/plain',
];

function bodyFor(call: Call): fc.Arbitrary<BodySpec | undefined> {
  const content = call.op.requestBody?.content ?? {};
  const declared = Object.entries(content);
  const schema = declared[0]?.[1].schema ?? { type: 'object', properties: {} };
  const value = fc.oneof({ weight: 4, arbitrary: objectOf(schema, (property) => fc.oneof(validValue(property), spoiledValue(property)), 1) }, { weight: 1, arbitrary: anyValue });
  const binaryField = Object.entries(schema.properties ?? {}).find(([, property]) => property.format === 'binary')?.[0];
  const file = fc.record({
    field: fc.constantFrom(binaryField ?? 'file', 'file', 'other'),
    name: fc.oneof(fc.constantFrom('log.txt', 'screenshot.png', 'a'.repeat(300), ' ', '..', '.env'), text.filter((name) => name.length < 2_000)),
    type: fc.constantFrom('text/plain', 'image/png', 'application/octet-stream', 'text/plain; charset=utf-8', 'x', ''),
    size: fc.oneof({ weight: 20, arbitrary: fc.integer({ min: 0, max: 2_000 }) }, { weight: 1, arbitrary: fc.constant(10 * 1024 * 1024 + 1) }),
  });
  const encodings: Array<{ weight: number; arbitrary: fc.Arbitrary<BodySpec | undefined> }> = [
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('json' as const), value, contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8') }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('form' as const), value }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('multipart' as const), value, file: fc.option(file, { nil: undefined, freq: 2 }) }) },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant('raw' as const), contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined, freq: 8 }), payload: fc.constantFrom(...GARBAGE_BODIES) }) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  ];
  // The call's own encoding comes up most.
  const own = declared.map(([mediaType]) => (mediaType.startsWith('multipart/') ? 2 : mediaType.includes('urlencoded') ? 1 : 0));
  for (const index of own) encodings[index]!.weight += 6;
  if (declared.length === 0) encodings[4]!.weight += 4;
  return fc.oneof(...encodings);
}

function requestFor(call: Call): fc.Arbitrary<RequestSpec> {
  const expired = signJwt({ sub: '1', exp: Math.floor(Date.UTC(2020, 0, 1) / 1000) });
  const orphan = signJwt({ sub: '987654', exp: Math.floor(Date.UTC(2099, 0, 1) / 1000) });
  return fc.record({
    method: fc.oneof({ weight: 12, arbitrary: fc.constant(call.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS') }),
    query: queryFor(call),
    body: call.method === 'GET' || call.method === 'DELETE' ? fc.oneof({ weight: 6, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: bodyFor(call) }) : bodyFor(call),
    auth: fc.oneof<fc.WeightedArbitrary<Auth>[]>(
      { weight: 14, arbitrary: fc.constant({ kind: 'valid' }) },
      { weight: 1, arbitrary: fc.constant({ kind: 'none' }) },
      {
        weight: 2,
        arbitrary: fc.constantFrom('Bearer', 'Bearer ', 'Bearer a.b.c', 'Basic dXNlcjpwYXNz', `Bearer ${'a'.repeat(8_000)}`, `Bearer ${expired}`, `Bearer ${orphan}`, 'Bearer null', 'Token x').map((value) => ({ kind: 'header' as const, value })),
      },
    ),
    fault: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
    address: fc.integer({ min: 1, max: 250 }).map((n) => `10.77.${n}.1`),
  });
}

/** Percent-encodes the UTF-8 bytes of `text` (encodeURIComponent throws on a lone surrogate). */
const percentEncode = (value: string) =>
  Buffer.from(value, 'utf8').toString('latin1').replace(/[^A-Za-z0-9\-_.~]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);

async function encodeBody(body: BodySpec): Promise<{ payload: string | Buffer; contentType: string | undefined }> {
  switch (body.kind) {
    case 'json':
      return { payload: JSON.stringify(body.value) ?? '', contentType: body.contentType };
    case 'raw':
      return { payload: body.payload, contentType: body.contentType };
    case 'form': {
      const form = new URLSearchParams();
      const fields = body.value !== null && typeof body.value === 'object' && !Array.isArray(body.value) ? Object.entries(body.value) : [['value', body.value] as const];
      for (const [name, value] of fields) for (const item of Array.isArray(value) ? value : [value]) form.append(name, asText(item));
      return { payload: form.toString(), contentType: 'application/x-www-form-urlencoded' };
    }
    case 'multipart': {
      const form = new FormData();
      const fields = body.value !== null && typeof body.value === 'object' && !Array.isArray(body.value) ? Object.entries(body.value) : [['value', body.value] as const];
      for (const [name, value] of fields) for (const item of Array.isArray(value) ? value : [value]) form.append(name, asText(item));
      if (body.file) form.append(body.file.field, new Blob([Buffer.alloc(body.file.size, 0x61)], { type: body.file.type }), body.file.name);
      const response = new Response(form);
      return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
    }
  }
}

// ---- Faults ------------------------------------------------------------------------------------

/** Whether the providers fail now. */
const faults = { on: false };

/** `source` that rejects like an upstream outage while faults are on. */
function switchableMarket(source: MarketData): MarketData {
  return new Proxy(source, {
    get(target, property, receiver) {
      const member = Reflect.get(target, property, receiver) as unknown;
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => (faults.on ? Promise.reject(new ProviderError('fuzz', 'injected outage', { status: 503 })) : (member as (...a: unknown[]) => unknown).apply(target, args));
    },
  });
}

function switchableMailer(inner: Mailer): Mailer {
  return {
    kind: inner.kind,
    send: async (message) => {
      if (faults.on) throw new MailError('injected outage');
      return inner.send(message);
    },
    close: () => inner.close(),
  };
}

// ---- The app -----------------------------------------------------------------------------------

let t: TestApp;
let mainAuth: string;
let throwawayAuth: string;
const analyst = new SwitchableAnalyst();
/** Messages logged at error level (pino level 50 and up). */
const errorLogs: string[] = [];

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        const entry = JSON.parse(line) as { level: number; msg: string; err?: { message?: string } };
        if (entry.level >= 50) errorLogs.push(`${entry.msg}${entry.err?.message ? `: ${entry.err.message}` : ''}`);
      }
      done();
    },
  });
  t = await createTestApp(
    // The per-user limits of the costly calls stay out of the way: every request reaches the handler.
    { MARKET_NOW, ANALYSIS_MAX_PER_USER: '10000', SUPPORT_MAX_PER_USER: '10000', PASSWORD_CHANGE_MAX_PER_USER: '10000' },
    {
      analyst,
      market: (config, clock) => createCachedMarket(switchableMarket(createSimulatedMarket({ clock })), clock),
      wrapMailer: switchableMailer,
      logger: { level: 'error', stream },
    },
  );
  mainAuth = (await userWithFavorites(t, 'fuzz', ['AAPL', 'MSFT'])).authorization;
  const throwaway = uniqueEmail('fuzz-throwaway');
  await createUser(t.db, throwaway, 'pw');
  throwawayAuth = (await login(t.app, throwaway, 'pw')).authorization;
});
afterAll(async () => t?.close());

async function send(call: Call, spec: RequestSpec): Promise<{ response: LightMyRequestResponse; url: string }> {
  const query = spec.query.map((part) => ('raw' in part ? part.raw : `${percentEncode(part.name)}=${percentEncode(part.value)}`)).join('&');
  const url = query ? `${call.path}?${query}` : call.path;
  const headers: Record<string, string> = {};
  if (spec.auth.kind === 'valid') headers.authorization = call.op['x-changes-account'] ? throwawayAuth : mainAuth;
  if (spec.auth.kind === 'header') headers.authorization = spec.auth.value;
  const options: InjectOptions = { method: spec.method as InjectOptions['method'], url, headers, remoteAddress: spec.address };
  if (spec.body) {
    const { payload, contentType } = await encodeBody(spec.body);
    options.payload = payload;
    if (contentType !== undefined) headers['content-type'] = contentType;
  }
  if (!call.op['x-streams-until-closed']) return { response: await t.app.inject(options), url };
  // A stream that stays open: its status and headers, and its first line (or a whole error body).
  const streamed = await t.app.inject({ ...options, payloadAsStream: true });
  const body = await firstLineOf(streamed.stream());
  return { response: { statusCode: streamed.statusCode, headers: streamed.headers, body } as LightMyRequestResponse, url };
}

/** The text up to the first newline (or to the end); then the stream is dropped. */
async function firstLineOf(stream: NodeJS.ReadableStream & { destroy(): void }): Promise<string> {
  let text = '';
  for await (const chunk of stream) {
    text += String(chunk);
    if (text.includes('\n')) break;
  }
  stream.destroy();
  return text.split('\n')[0]!;
}

function check(call: Call, spec: RequestSpec, url: string, response: LightMyRequestResponse, logged: string[]): void {
  const { statusCode: status } = response;
  const where = `${spec.method} ${url.slice(0, 300)} (fault: ${spec.fault}) answered ${status}: ${response.body.slice(0, 300)}`;
  if (status >= 500) expect(spec.fault && (status === 502 || status === 503), where).toBe(true);
  if (status >= 400) {
    expect(response.headers['content-type'], where).toMatch(/^application\/json/);
    const body = JSON.parse(response.body) as { msg?: unknown; error?: unknown };
    expect(typeof body.msg === 'string' && body.msg.length > 0, where).toBe(true);
    // The forgot-password screen shows `error` (spec §8); an unknown method is not the call.
    if (call.path === '/api/forgot-password' && spec.method === call.method) expect(body.error, where).toBe(body.msg);
  }
  expect(response.headers['x-content-type-options'], where).toBe('nosniff');
  if (!spec.fault) expect(logged, where).toEqual([]);
}

describe('the fuzzed calls', () => {
  it('are every call the app serves: the document lists every registered /api route, and is the one it serves', async () => {
    const fuzzed = new Set(CALLS.map((call) => `${call.method} ${call.path}`));
    const missing = apiRoutes(t.app).map((route) => `${route.method} ${openApiPath(route.url)}`).filter((route) => !fuzzed.has(route));
    expect(missing).toEqual([]);
    expect(CALLS.length).toBeGreaterThan(30);
    const served = await t.app.inject({ method: 'GET', url: '/api/docs', headers: { authorization: mainAuth } });
    expect(served.json()).toEqual(JSON.parse(JSON.stringify(DOCUMENT)));
    // The calls that change the account come last.
    expect(CALLS.slice(-2).map((call) => call.path).sort()).toEqual(['/api/deactivate_user', '/api/update-password']);
  });
});

describe(`fuzz: ${RUNS_PER_CALL} malformed requests per call, seed ${SEED}`, () => {
  for (const call of CALLS) {
    it(`${call.method} ${call.path}`, async () => {
      const statuses = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(requestFor(call), async (spec) => {
          const before = errorLogs.length;
          faults.on = spec.fault;
          analyst.failing = spec.fault;
          try {
            const { response, url } = await send(call, spec);
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            // Work the answer left running (the reset e-mail) counts for this request.
            await t.app.drainBackgroundWork();
            check(call, spec, url, response, errorLogs.slice(before));
          } finally {
            faults.on = false;
            analyst.failing = false;
          }
        }),
        { seed: seedOf(call), numRuns: RUNS_PER_CALL },
      );
      if (process.env.FUZZ_STATS) console.log(`${call.method} ${call.path}`, JSON.stringify(Object.fromEntries(statuses)));
    });
  }
});
