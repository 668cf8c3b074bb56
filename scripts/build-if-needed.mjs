// Builds the web bundle and the server bundle when they are missing or older than their sources,
// so `npm start` and `npm run user` work straight after `npm ci` (Node 20 cannot run TypeScript).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

function newestMtime(entries) {
  let newest = 0;
  const visit = (p) => {
    if (!existsSync(p)) return;
    const stat = statSync(p);
    if (stat.isDirectory()) {
      for (const name of readdirSync(p)) if (name !== 'node_modules' && name !== 'dist') visit(path.join(p, name));
    } else newest = Math.max(newest, stat.mtimeMs);
  };
  entries.forEach((entry) => visit(path.join(root, entry)));
  return newest;
}

const targets = {
  web: {
    // Written after bundling (apps/web/precompress.ts): a build that stopped before it is stale.
    output: 'apps/web/dist/index.html.br',
    sources: ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'apps/web/precompress.ts', 'packages/core/src'],
    build: () => [process.execPath, [path.join(path.dirname(require.resolve('vite/package.json')), 'bin/vite.js'), 'build', '--logLevel', 'warn'], path.join(root, 'apps/web')],
  },
  server: {
    output: 'apps/server/dist/server.js',
    sources: ['apps/server/src', 'apps/server/build.mjs', 'packages/core/src'],
    build: () => [process.execPath, [path.join(root, 'apps/server/build.mjs')], root],
  },
};

// The worker entry (`npm run worker`) is part of the server bundle: a bundle from before it existed is rebuilt.
targets.worker = { ...targets.server, output: 'apps/server/dist/worker.js' };

/** Builds each named target that is missing or stale. */
export function buildIfNeeded(names = ['web', 'server']) {
  for (const name of names) {
    const target = targets[name];
    const output = path.join(root, target.output);
    const stale = !existsSync(output) || statSync(output).mtimeMs < newestMtime(target.sources);
    if (!stale) continue;
    console.log(`[signalboard] Building the ${name} bundle…`);
    const [command, args, cwd] = target.build();
    const result = spawnSync(command, args, { cwd, stdio: 'inherit' });
    if (result.status !== 0) {
      console.error(`[signalboard] Building the ${name} bundle failed.`);
      process.exit(result.status ?? 1);
    }
  }
}
