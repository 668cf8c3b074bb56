/** Engine `drop@1.1.0` (docs/rules/drop-items.md §5): the drop items of screen drop. */
export {
  bestOfSp500,
  createDropEngine,
  DROP_PARAMS,
  DROP_RULE_VERSION,
  dropEngine,
  dropIdeaId,
  dropKey,
  dropSignals,
  dropTriggerAt,
  type DropCandidate,
  type DropEngineOptions,
  type DropParams,
  type DropTrigger,
} from './engine';
export { dropNewsOf, headlineScore, NEWS_DRIVEN_WORDS, NO_NEWS, sentimentLabel, type DropNews } from './news';
export { askValue, bidValue, type DropOptionBar, type DropOptionPricer } from './option';
export { dropOutcome, dropProfitPercentage, dropStatus, foldDropRow, type DropMark } from './row';
export { DROP_TYPES, type DropOptionContract, type DropSentiment, type DropState, type DropType, type NewsTag } from './state';
export { createDropOptionPricer, dropChainNeeds, dropMarkAt, dropOptionPricer } from './option-pricer';
