/** The trade-idea engines (docs/rules/conventions.md §0–docs/rules/swing.md §2) and their shared mechanics. */
import { layeredEngine } from './layered';
import { swingEngine } from './swing';
import { optionsEngine } from './options/engine';
import { dropEngine } from './drop/engine';
import { cryptoEngine } from './crypto/engine';

export * from './types';
export { COST_BPS, COST_RATE, roundCentDown, roundCentUp, roundTo } from './kit/prices';
export { canonicalJson, paramHash } from './kit/param-hash';
export { sha256, sha256Hex } from './kit/sha256';
export { closeTimeOf, CRYPTO_PASS_MINUTES, cryptoPassTimeOf, passTimeFor, passTimeOf } from './kit/times';
export { emptyLedger, foldIntoLedger, replay, stampEvents, type EngineLedger, type ReplayInput } from './kit/replay';
export { rankAndCap, cooldownAllows, compareCodePoints } from './kit/selection';
export { indicatorsOf, type SeriesIndicators } from './kit/series';
export { createLayeredEngine, layeredEngine, LAYERED_PARAMS, LAYERED_RULE_VERSION, type LayeredParams } from './layered';
export { layeredDerivedFields, foldLayeredRow, layeredOutcome, type LayeredDerived, type LayeredPlanFields } from './layered-row';
export type { LayeredState } from './layered-state';
export { createSwingEngine, swingEngine, SWING_PARAMS, SWING_RULE_VERSION, earningsWithin, type SwingParams } from './swing';
export { foldSwingRow, swingCurrentProfit, swingOutcome, swingStatus } from './swing-row';
export { SWING_TYPES, type SwingState, type SwingType } from './swing-state';
export * from './drop/index';
export * from './options/index';
export * from './crypto/index';

/** Every implemented engine by id (the server's registry; a missing engine is a type error there). */
export const TRADE_ENGINES = { layered: layeredEngine, swing: swingEngine, options: optionsEngine, drop: dropEngine, crypto: cryptoEngine } as const;
export * from './track-record/index';
