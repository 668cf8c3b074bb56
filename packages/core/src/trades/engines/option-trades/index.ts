/** The option-trade engine `options@1.1.0` (docs/rules/option-trades.md §4) and its pricing, contracts and strength score. */
export { createOptionsEngine, optionsEngine, optionChainNeeds } from './engine';
export { OPTIONS_PARAMS, OPTIONS_RULE_VERSION, type OptionsParams } from './params';
export { optionAlertsAt, optionStrengthInputsAt } from './alerts';
export { chooseContract, fallbackSigma } from './contract-choice';
export type { OptionPricingExtras, OptionsExtras } from './extras';
export { foldOptionRow, OPTION_NO_VOLUME_TAG, type OptionMark, OPTION_VOLUME_TAG, optionOutcome, optionProfitPercent, optionStatus } from './row';
export { applyOptionEvent, foldOptions, type OptionOpenedData, type OptionState, type RsiStatus, type SigmaSource } from './state';
export { askOf, bidOf, bsmDelta, bsmPrice, modelValue, normCdf, yangZhang, type BsmInput, type ContractTerms } from './pricing';
export { chooseExpiry, liquidEnough, modelExpiries, occName, occNamePadded, parseOcc, rankStrikes, strikeStep, type ParsedOcc } from './contracts';
export { optionStrengthBand, optionStrengthScore, STRENGTH_MAX, STRENGTH_WEIGHTS, type StrengthBand, type StrengthColour, type StrengthInputs } from './strength';

import { optionsEngine } from './engine';
/** The options engine as registered in TRADE_ENGINES (the server runs it). */
export const OPTIONS_ENGINE = optionsEngine;
