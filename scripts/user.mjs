// npm run user -- <command>: the admin command line (see apps/server/src/cli/user.ts).
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded(['server']);
await import('../apps/server/dist/cli.js');
