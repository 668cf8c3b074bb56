import type { FastifyInstance } from 'fastify';

/**
 * A private, self-hosted app: nothing in it is for search engines (its pages need a sign-in, and
 * the simulated market's article pages are not news). Without this route /robots.txt answered the
 * app's HTML page.
 */
export const ROBOTS_TXT = 'User-agent: *\nDisallow: /\n';

export async function robotsRoutes(app: FastifyInstance) {
  app.get('/robots.txt', async (_request, reply) =>
    reply.type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=86400').send(ROBOTS_TXT),
  );
}
