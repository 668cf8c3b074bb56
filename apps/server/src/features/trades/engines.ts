/** The engines the server runs: every engine packages/core implements (TRADE_ENGINES: layered, swing, options, drop, crypto). */
import { TRADE_ENGINES } from '@signalboard/core';
import type { AnyEngine } from './trades.types';

export const SERVER_TRADE_ENGINES: readonly AnyEngine[] = Object.values(TRADE_ENGINES);
