import { availableParallelism } from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';

const serverProject = (name: string, database: 'embedded' | 'external', redis = false): TestProjectInlineConfiguration => ({
  test: {
    name,
    root: 'apps/server',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // One module graph per worker, not per file: importing the app (Fastify, Drizzle, the engines)
    // took most of the suite's time when each of its 100 files did it again. The files share no
    // state (each has a database of its own, Redis prefixes of its own; no mocks or fake timers).
    isolate: false,
    env: { SB_TEST_DATABASE: database, ...(redis ? { SB_TEST_REDIS: 'external' } : {}) },
    testTimeout: 30_000,
    hookTimeout: 120_000,
  },
});

const projects: TestProjectInlineConfiguration[] = [
  // testTimeout: the property tests replay seeded universes session by session (up to ~7 s of CPU each);
  // beside a second worker and the server suite's PostgreSQL, vitest's 5 s default failed them.
  { test: { name: 'core', root: 'packages/core', include: ['src/**/*.test.ts'], isolate: false, testTimeout: 30_000 } },
  // The repository's own scripts (check-structure.mjs on small fixture trees). testTimeout: a test runs
  // the check up to five times; beside the server suite and a browser build on 2 shared cores one took
  // 7.4 s against vitest's 5 s default (clean-clone CI, 2026-12-03).
  { test: { name: 'scripts', root: 'scripts', include: ['**/*.test.ts'], testTimeout: 30_000 } },
  serverProject('server', 'embedded'),
  // testTimeout: a screen test renders in jsdom beside the server suite's workers; the slowest (eleven
  // clicks on the Alert Preferences card, the crypto screen's reload) take ~5 s on 2 shared cores, which
  // vitest's default 5 s failed (clean-clone CI, 2026-12-02). Tests still wait for states, never sleep.
  { extends: 'apps/web/vite.config.ts', test: { name: 'web', root: 'apps/web', include: ['src/**/*.test.{ts,tsx}'], environment: 'jsdom', setupFiles: ['src/test/setup.ts'], testTimeout: 20_000 } },
  {
    test: {
      name: 'e2e',
      root: 'e2e',
      include: ['**/*.spec.ts'],
      globalSetup: ['global-setup.ts'],
      fileParallelism: false,
      // Its own group: one file at a time here, two workers for the other projects (a run of all the
      // projects together otherwise refuses their different maxWorkers).
      sequence: { groupOrder: 1 },
      testTimeout: 90_000,
      hookTimeout: 180_000,
      // expect.poll waits for a screen's state as long as a Playwright action does (the contexts' 15 s),
      // not vitest's default second, which a busy machine overruns before a list has drawn.
      expect: { poll: { timeout: 15_000 } },
    },
  },
];

// With DATABASE_URL pointing at a PostgreSQL server, the server suite runs against it too, and on
// Redis (shared state, BullMQ) when REDIS_URL is set as well: the scale-out configuration.
if (process.env.DATABASE_URL) projects.push(serverProject('server-pg', 'external', Boolean(process.env.REDIS_URL)));

export default defineConfig({
  test: {
    projects,
    // Two test files at once at least: vitest's default (one fewer than the cores) is a single worker
    // on a 2-core CI machine, which left the second core to the embedded PostgreSQL's share alone (the
    // unit phase took ~13 min). The e2e project keeps one file at a time (fileParallelism: false).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
