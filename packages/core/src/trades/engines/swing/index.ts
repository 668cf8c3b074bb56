/** Engine `swing@1.0.0` (docs/rules/swing.md §2): the Swing Trade Scanner's trades (feature swing). */
export { createSwingEngine, swingEngine, SWING_PARAMS, SWING_RULE_VERSION, earningsWithin, type SwingParams } from './engine';
export { foldSwingRow, swingCurrentProfit, swingOutcome, swingStatus } from './row';
export { SWING_TYPES, type SwingState, type SwingType } from './state';
export type { SwingExtras } from './extras';
