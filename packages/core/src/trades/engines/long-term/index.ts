/** Engine `layered@1.0.0` (docs/rules/long-term.md §1): the Long Term Scanner's layered plans (feature long-term). */
export { createLayeredEngine, layeredEngine, LAYERED_PARAMS, LAYERED_RULE_VERSION, type LayeredParams } from './engine';
export { layeredDerivedFields, foldLayeredRow, layeredOutcome, type LayeredDerived, type LayeredPlanFields } from './row';
export type { LayeredState } from './state';
export type { LayeredExtras } from './extras';
