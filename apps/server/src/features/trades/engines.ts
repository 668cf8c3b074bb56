/**
 * The engines the server runs: every engine packages/core implements (TRADE_ENGINES: layered, swing,
 * options, drop, crypto), and each one's adapter (engine-adapter.ts), by engine id.
 */
import { TRADE_ENGINES, type EngineId } from '@signalboard/core';
import type { EngineAdapter } from './engine-adapter';
import { cryptoAdapter } from './engines/crypto.adapter';
import { dropItemsAdapter } from './engines/drop-items.adapter';
import { longTermAdapter } from './engines/long-term.adapter';
import { optionTradesAdapter } from './engines/option-trades.adapter';
import { swingAdapter } from './engines/swing.adapter';
import type { AnyEngine } from './trades.types';

export const SERVER_TRADE_ENGINES: readonly AnyEngine[] = Object.values(TRADE_ENGINES);

/**
 * Each engine's adapter (in TRADE_ENGINES' order: the list calls are registered in it), typed by its
 * id: the adapter under `drop` is an EngineAdapter<'drop'>, whose extras are the drop engine's.
 */
export const ENGINE_ADAPTERS: { readonly [Id in EngineId]: EngineAdapter<Id> } = {
  layered: longTermAdapter,
  swing: swingAdapter,
  options: optionTradesAdapter,
  drop: dropItemsAdapter,
  crypto: cryptoAdapter,
};

/** The adapter of `engine` (an engine id, or an engine). */
export const adapterOf = (engine: EngineId | Pick<AnyEngine, 'id'>): EngineAdapter => ENGINE_ADAPTERS[typeof engine === 'string' ? engine : engine.id];
