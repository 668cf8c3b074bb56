import type { FastifyInstance } from 'fastify';

export interface Route {
  method: string;
  url: string;
}

/**
 * Every route of the app, from printRoutes' tree: each line is a path segment (appended to its
 * parent's path, found by indentation) and, when routes end there, their methods in parentheses.
 */
export function registeredRoutes(app: FastifyInstance): Route[] {
  const routes: Route[] = [];
  const pathAtDepth: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:[│ ] {3})*)(?:├──|└──) (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    const path = (depth > 0 ? pathAtDepth[depth - 1]! : '') + match[2]!;
    pathAtDepth[depth] = path;
    pathAtDepth.length = depth + 1;
    for (const method of match[3]?.split(', ') ?? []) routes.push({ method, url: path });
  }
  return routes;
}

/** The app's /api routes (HEAD, which Fastify adds to every GET, left out). */
export const apiRoutes = (app: FastifyInstance): Route[] =>
  registeredRoutes(app).filter((route) => route.method !== 'HEAD' && (route.url === '/api' || route.url.startsWith('/api/')));

/** A Fastify route path (`/a/:b`) as the OpenAPI document writes it (`/a/{b}`), and back. */
export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
export const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');
