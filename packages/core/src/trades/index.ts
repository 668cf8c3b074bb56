/**
 * The trade-idea engines (docs/rules/conventions.md §0–docs/rules/swing.md §2) and their shared mechanics.
 *
 * Each engine lives in engines/<feature code name>/ (engine.ts, state.ts, row.ts, index.ts, and the
 * engine's own extras); its persisted id stays the one stored in idea_events:
 *   id 'layered' → engines/long-term/     id 'swing'   → engines/swing/
 *   id 'options' → engines/option-trades/ id 'drop'    → engines/drop-items/
 *   id 'crypto'  → engines/crypto/
 * Shared by all: kit/ (series, prices, selection, replay, times, lifecycle…) and track-record/.
 */
import { layeredEngine } from './engines/long-term/engine';
import { swingEngine } from './engines/swing/engine';
import { optionsEngine } from './engines/option-trades/engine';
import { dropEngine } from './engines/drop-items/engine';
import { cryptoEngine } from './engines/crypto/engine';
import type { EngineId, ExtrasOf } from './types';

export * from './types';
export { COST_BPS, COST_RATE, roundCentDown, roundCentUp, roundTo } from './kit/prices';
export { canonicalJson, paramHash } from './kit/param-hash';
export { dataVersionIn, rulesOf, ruleVersionLabel, versionOnData } from './kit/data-version';
export { sha256, sha256Hex } from './kit/sha256';
export { closeTimeOf, CRYPTO_PASS_MINUTES, cryptoPassTimeOf, passTimeOf, passTimeOn } from './kit/times';
export { emptyLedger, foldIntoLedger, replay, stampEvents, type EngineLedger, type ReplayInput } from './kit/replay';
export { rankAndCap, cooldownAllows, compareCodePoints } from './kit/selection';
export { indicatorsOf, type SeriesIndicators } from './kit/series';
export * from './engines/long-term/index';
export * from './engines/swing/index';
export * from './engines/drop-items/index';
export * from './engines/option-trades/index';
export * from './engines/crypto/index';

/** Every implemented engine by id (the server's registry; a missing engine is a type error there). */
export const TRADE_ENGINES = { layered: layeredEngine, swing: swingEngine, options: optionsEngine, drop: dropEngine, crypto: cryptoEngine } as const;

/**
 * Each engine's extras by id: the extras type X its definition declares (engines/<name>/extras.ts), what
 * its server adapter builds (apps/server/src/features/trades/engine-adapter.ts EngineAdapter<Id>).
 */
export type EngineExtras = { [Id in EngineId]: ExtrasOf<(typeof TRADE_ENGINES)[Id]> };

/**
 * Every engine's extras fields at once (all optional, each declared by the engine that reads it): the
 * type of code that serves every engine without knowing which (the server's runner and
 * createExtrasFor, benches and tests that name no engine). An intersection, not a union: it is a value
 * of each engine's extras (so it can be handed to whichever engine runs), each engine's extras are a
 * value of it (every field is optional), and a field (the runner's `optionChains`) reads without
 * narrowing. Engine code never uses it: it reads its own X.
 */
export type SessionExtras = EngineExtras['layered'] & EngineExtras['swing'] & EngineExtras['options'] & EngineExtras['drop'] & EngineExtras['crypto'];

export * from './track-record/index';
