/**
 * One built server for the browser tests, on a fresh embedded database in a temporary DATA_DIR.
 * `npm run test:e2e` builds the bundles first.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { makeDataDir, REPO_ROOT, startServer } from './support/server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
  }
}

export default async function setup(project: TestProject) {
  for (const file of ['apps/web/dist/index.html', 'apps/server/dist/server.js']) {
    if (!existsSync(path.join(REPO_ROOT, file))) throw new Error(`${file} is missing: run npm run build first`);
  }
  const dataDir = await makeDataDir('e2e');
  const server = await startServer(dataDir);
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', dataDir);
  return async () => {
    const code = await server.stop();
    if (code !== 0) console.error(`e2e server exited with ${code}:\n${server.output()}`);
    await fs.rm(path.dirname(dataDir), { recursive: true, force: true });
  };
}
