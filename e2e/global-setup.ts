/**
 * Two built servers for the browser tests, each on a fresh embedded database in a temporary
 * DATA_DIR: the embedded defaults (simulated market), and a file-backed market built from
 * e2e/fixtures/market with MARKET_NOW pinned, for the screens whose results the specs assert
 * exactly. `npm run test:e2e` builds the bundles first. Every DATA_DIR of the run is in its folder
 * (apps/server/test/run-dirs.ts): a run interrupted before its teardown leaves embedded PostgreSQL
 * servers running there, and the next run stops them first.
 */
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { DATASET_PARTS } from './fixtures/market';
import { MARKET_NOW, writeDataset } from './fixtures/market/dataset';
import { MARKET_NEWS_IMAGE_URL } from './fixtures/market/news-market';
import { startChannelFakes } from './support/channel-fakes';
import { startRun } from '../apps/server/test/run-dirs';
import { makeDataDir, REPO_ROOT, startServer, type RunningServer } from './support/server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dataDir: string;
    marketBaseUrl: string;
    marketDataDir: string;
    marketNow: string;
    /** The alerts server (the pinned dataset too, for e2e/alerts-fire.spec.ts) and its TEST_CONTROL_FILE. */
    alertsBaseUrl: string;
    alertsDataDir: string;
    alertsControlFile: string;
    /** The alerts server's fake Telegram Bot API and Discord recorder: their control routes (support/channel-fakes.ts). */
    channelFakesUrl: string;
  }
}

export default async function setup(project: TestProject) {
  for (const file of ['apps/web/dist/index.html', 'apps/server/dist/server.js']) {
    if (!existsSync(path.join(REPO_ROOT, file))) throw new Error(`${file} is missing: run npm run build first`);
  }
  const run = await startRun('e2e');
  try {
    return await startServers(project, run.finish);
  } catch (error) {
    await run.finish();
    throw error;
  }
}

async function startServers(project: TestProject, finish: () => Promise<void>) {
  const dataDir = await makeDataDir('e2e');
  const marketDataDir = await makeDataDir('e2e-market');
  const datasetDir = path.join(path.dirname(marketDataDir), 'dataset');
  await writeDataset(datasetDir, DATASET_PARTS);
  const alertsDataDir = await makeDataDir('e2e-alerts');
  const controlFile = path.join(path.dirname(alertsDataDir), 'test-control.json');
  await fs.writeFile(controlFile, '{}');
  // Before the alerts server, whose environment names them (a few milliseconds).
  const fakes = await startChannelFakes();
  const [server, market, alerts] = await Promise.all([
    startServer(dataDir),
    // The dataset's one outside news image loads only from a listed origin (the CSP and the news answers follow NEWS_IMAGE_ORIGINS).
    startServer(marketDataDir, { env: { MARKET_DATA: 'file', DATASET_DIR: datasetDir, MARKET_NOW, NEWS_IMAGE_ORIGINS: new URL(MARKET_NEWS_IMAGE_URL).origin } }),
    // The alert tests move this server's quotes and clocks (TEST_CONTROL_FILE), so it is theirs alone.
    // Webhooks may reach the tests' receivers on loopback (alert-channels.spec.ts); its Telegram bot and
    // Discord are the fakes (alert-channels-more.spec.ts).
    startServer(alertsDataDir, {
      env: { MARKET_DATA: 'file', DATASET_DIR: datasetDir, MARKET_NOW, NODE_ENV: 'test', TEST_CONTROL_FILE: controlFile, ALERT_POLL_SECONDS: '1', WEBHOOK_ALLOW_HTTP: 'true', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', ...fakes.env },
    }),
  ]).catch(async (error: unknown) => {
    await fakes.close();
    throw error;
  });
  project.provide('baseUrl', server.baseUrl);
  project.provide('dataDir', dataDir);
  project.provide('marketBaseUrl', market.baseUrl);
  project.provide('marketDataDir', marketDataDir);
  project.provide('marketNow', MARKET_NOW);
  project.provide('alertsBaseUrl', alerts.baseUrl);
  project.provide('alertsDataDir', alertsDataDir);
  project.provide('alertsControlFile', controlFile);
  project.provide('channelFakesUrl', fakes.baseUrl);
  return async () => {
    // All three at once, each killed after 30 s; then whatever is left in the run's folder (a
    // postmaster of a server that had to be killed) is stopped and the folder removed.
    const servers: Array<[string, RunningServer]> = [['e2e', server], ['e2e market', market], ['e2e alerts', alerts]];
    await Promise.all(
      servers.map(async ([name, running]) => {
        const code = await running.stop('SIGTERM', 30_000);
        if (code !== 0) console.error(`${name} server exited with ${code}:\n${running.output()}`);
      }),
    );
    await fakes.close();
    await finish();
  };
}
