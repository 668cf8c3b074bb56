// npm run data -- <command>: imported daily price files from the command line (see apps/server/src/cli/data.ts).
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded(['server']);
await import('../apps/server/dist/data.js');
