/** Engine `drop@1.1.0` (docs/rules/drop-items.md §5): the drop items of screen drop. */
export { createDropEngine, dropEngine, type DropEngineOptions } from './engine';
export { DROP_PARAMS, DROP_RULE_VERSION, type DropParams } from './params';
export { bestOfSp500, dropIdeaId, dropKey, dropSignals, dropTriggerAt, type DropCandidate, type DropTrigger } from './signals';
export { dropNewsOf, headlineScore, NEWS_DRIVEN_WORDS, NO_NEWS, sentimentLabel, type DropNews } from './news';
export { askValue, bidValue, type DropOptionBar, type DropOptionPricer } from './option';
export { dropOutcome, dropProfitPercentage, dropStatus, foldDropRow, type DropMark } from './row';
export { DROP_TYPES, type DropOptionContract, type DropSentiment, type DropState, type DropType, type NewsTag } from './state';
export { createDropOptionPricer, dropChainNeeds, dropMarkAt, dropOptionPricer } from './option-pricer';
export type { DropExtras, DropHeadline } from './extras';
