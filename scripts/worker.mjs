// npm run worker: build the server bundle if it is not built yet, then run a job worker in this
// process (REDIS_URL required; see the README's "Workers (REDIS_URL)").
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded(['worker']);
await import('../apps/server/dist/worker.js');
