/**
 * Registers a route for an endpoint declared in packages/core/src/endpoints (its method and path),
 * and records the declaration on the route (`config.endpoint`), which GET /api/docs is built from
 * (registeredEndpoints). The declared input is parsed with parseInput (a failure: 400 with its `msg`)
 * and handed to the handler; nothing else runs per request: a declaration without input registers
 * the handler as it is, one with input wraps it in a closure that only parses.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import type { z, ZodType } from 'zod';
import type { Endpoint } from '@signalboard/core';
import { parseInput } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The declaration this route was registered for (lib/endpoint.ts route). */
    endpoint?: Endpoint;
  }
}

/** The part of the request a route's input is parsed from. */
export type InputPart = 'query' | 'params' | 'body';
type Parsed<S> = S extends ZodType ? z.output<S> : undefined;
/** The declared input part (body, else query, else params): the one route() parses by default. */
type DefaultPart<E extends Endpoint> = E['body'] extends ZodType ? 'body' : E['query'] extends ZodType ? 'query' : E['params'] extends ZodType ? 'params' : never;

export type EndpointHandler<I> = (request: FastifyRequest, reply: FastifyReply, input: I) => unknown;

export interface RouteParsing<P extends InputPart | 'none'> {
  /**
   * Which declared part route() parses: by default the only one declared. `none`: the handler reads
   * the request itself (a multipart or signed form, a check that must come first); the declared
   * schemas then only describe the call in the document.
   */
  parse: P;
}

/** Registers `handler` for `endpoint` on `app` (a scope mounted at the path's prefix, e.g. /api). */
export function route<E extends Endpoint>(app: FastifyInstance, endpoint: E, handler: EndpointHandler<Parsed<E[DefaultPart<E>]>>): void;
export function route<E extends Endpoint, P extends InputPart | 'none'>(
  app: FastifyInstance,
  endpoint: E,
  parsing: RouteParsing<P>,
  handler: EndpointHandler<P extends InputPart ? Parsed<E[P]> : undefined>,
): void;
export function route(app: FastifyInstance, endpoint: Endpoint, ...rest: [EndpointHandler<never>] | [RouteParsing<InputPart | 'none'>, EndpointHandler<never>]): void {
  const [parsing, handler] = rest.length === 1 ? [undefined, rest[0]] : rest;
  const declared = (['body', 'query', 'params'] as const).filter((part) => endpoint[part] !== undefined);
  if (!parsing && declared.length > 1) throw new Error(`${endpoint.operationId} declares ${declared.join(' and ')}: say which one route() parses`);
  const part = parsing ? parsing.parse : declared[0];
  if (part !== undefined && part !== 'none' && !endpoint[part]) throw new Error(`${endpoint.operationId} declares no ${part} to parse`);
  const prefix = app.prefix;
  if (!endpoint.path.startsWith(`${prefix}/`)) throw new Error(`${endpoint.operationId}: ${endpoint.path} is not under this scope's prefix ${prefix}`);
  const url = endpoint.path.slice(prefix.length).replace(/\{(\w+)\}/g, ':$1');
  const call = handler as EndpointHandler<unknown>;
  const options: RouteOptions = {
    method: endpoint.method.toUpperCase() as 'GET' | 'POST' | 'PUT' | 'DELETE',
    url,
    config: { endpoint },
    handler: (call as RouteOptions['handler']),
  };
  if (part === 'body') {
    const schema = endpoint.body!;
    options.handler = async (request, reply) => call(request, reply, parseInput(schema, request.body));
  } else if (part === 'query') {
    const schema = endpoint.query!;
    options.handler = async (request, reply) => call(request, reply, parseInput(schema, request.query));
  } else if (part === 'params') {
    const schema = endpoint.params!;
    options.handler = async (request, reply) => call(request, reply, parseInput(schema, request.params));
  }
  app.route(options);
}

/**
 * The declarations of every route registered on `app` from now on (its child scopes' too), in
 * registration order; read once the app is ready. A route registered without route() has none.
 */
export function registeredEndpoints(app: FastifyInstance): readonly Endpoint[] {
  const endpoints: Endpoint[] = [];
  app.addHook('onRoute', (options) => {
    const endpoint = options.config?.endpoint;
    // Fastify adds a HEAD route beside each GET, with the same config.
    if (endpoint && options.method === endpoint.method.toUpperCase()) endpoints.push(endpoint);
  });
  return endpoints;
}
