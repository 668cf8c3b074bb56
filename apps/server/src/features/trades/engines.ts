/**
 * The engines the server runs (packages/core/src/trades): none is wired yet on this branch; the
 * engines branch (issue11-engines) brings TRADE_ENGINES (layered, swing), listed here once merged.
 */
import type { AnyEngine } from './trades.runner';

export const SERVER_TRADE_ENGINES: readonly AnyEngine[] = [];
