// npm start: build what is not built yet, then run the server in this process.
import { buildIfNeeded } from './build-if-needed.mjs';

buildIfNeeded(['web', 'server']);
await import('../apps/server/dist/server.js');
