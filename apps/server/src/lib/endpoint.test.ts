import Fastify, { type FastifyInstance, type RouteOptions } from 'fastify';
import { z } from 'zod';
import { defineEndpoint, singleLineText } from '@signalboard/core';
import { afterEach, describe, expect, it } from 'vitest';
import { registeredEndpoints, route } from './endpoint';
import { HttpError } from './errors';

const greet = defineEndpoint({ operationId: 'greet', method: 'post', path: '/api/greet', summary: 'Greets', body: z.object({ name: singleLineText('name', { max: 20 }) }), response: z.string() });
const ping = defineEndpoint({ operationId: 'ping', method: 'get', path: '/api/ping', summary: 'Pings', response: z.string() });
const item = defineEndpoint({ operationId: 'getItem', method: 'get', path: '/api/items/{id}', summary: 'An item', params: z.object({ id: z.string() }), query: z.object({ full: z.string().optional() }), response: z.string() });

const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const app of apps.splice(0)) await app.close();
});

/** An app with the /api scope, HttpError answered as `{ msg }` as app.ts does; answers it and what was registered. */
async function appWith(register: (api: FastifyInstance) => void) {
  const app = Fastify();
  apps.push(app);
  app.setErrorHandler((error, _request, reply) => (error instanceof HttpError ? reply.status(error.statusCode).send({ msg: error.message }) : reply.status(500).send({ msg: String(error) })));
  const endpoints = registeredEndpoints(app);
  const routes: RouteOptions[] = [];
  app.addHook('onRoute', (options) => void routes.push(options));
  await app.register(async (api) => register(api), { prefix: '/api' });
  await app.ready();
  return { app, endpoints, routes };
}

describe('route()', () => {
  it('registers the declared method and path under the scope, parses the body and hands it over', async () => {
    const { app, endpoints } = await appWith((api) => route(api, greet, async (_request, _reply, { name }) => `hello ${name}`));
    expect((await app.inject({ method: 'POST', url: '/api/greet', payload: { name: 'Ada' } })).body).toBe('hello Ada');
    const bad = await app.inject({ method: 'POST', url: '/api/greet', payload: { name: 'A\u0000' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toMatch(/name/);
    expect(endpoints).toEqual([greet]);
  });

  it('registers a handler without declared input as it is (nothing runs per request but the handler)', async () => {
    const handler = async () => 'pong';
    const { app, endpoints, routes } = await appWith((api) => route(api, ping, handler));
    expect((await app.inject({ method: 'GET', url: '/api/ping' })).body).toBe('pong');
    expect(routes.find((options) => options.method === 'GET')!.handler).toBe(handler);
    // HEAD, which Fastify adds beside the GET, is no second declaration.
    expect(endpoints).toEqual([ping]);
  });

  it('maps {param} to :param, needs to be told which of two declared parts to parse, and may parse none', async () => {
    await expect(appWith((api) => route(api, item, async () => 'x'))).rejects.toThrow('getItem declares query and params');
    const { app } = await appWith((api) => {
      route(api, item, { parse: 'params' }, async (_request, _reply, { id }) => `item ${id}`);
    });
    expect((await app.inject({ method: 'GET', url: '/api/items/7' })).body).toBe('item 7');
    const raw = await appWith((api) => route(api, greet, { parse: 'none' }, async (request) => JSON.stringify(request.body)));
    expect((await raw.app.inject({ method: 'POST', url: '/api/greet', payload: { other: 1 } })).body).toBe('{"other":1}');
  });

  it('records nothing for a route registered without a declaration', async () => {
    const { endpoints } = await appWith((api) => {
      api.get('/plain', async () => 'plain');
    });
    expect(endpoints).toEqual([]);
  });
});
