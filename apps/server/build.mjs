// Bundles the server and the admin CLI for Node 20 (which cannot run TypeScript). Packages from
// node_modules stay external; the workspace's own TypeScript (@signalboard/core) is bundled in.
import { cp, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

await rm(here('./dist'), { recursive: true, force: true });
await esbuild.build({
  entryPoints: { server: here('./src/server.ts'), worker: here('./src/worker.ts'), cli: here('./src/cli/user.ts'), data: here('./src/cli/data.ts') },
  outdir: here('./dist'),
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalize-node-modules',
      setup(build) {
        build.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@signalboard/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
await cp(here('./src/db/migrations'), here('./dist/migrations'), { recursive: true });
// password-policy.ts reads its list beside the bundle, as db/client.ts reads the migrations.
await cp(here('./src/features/auth/common-passwords'), here('./dist/common-passwords'), { recursive: true });
console.log('server bundle: apps/server/dist/server.js, apps/server/dist/worker.js, apps/server/dist/cli.js, apps/server/dist/data.js');
