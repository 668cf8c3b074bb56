/**
 * The fixed list behind the OPTION_ALERT alert type (spec §9): defined in core, beside the alert
 * rules' contract, so the alert screen, the rule checks and the option engine share one list.
 */
export { OPTION_ALERT_TICKERS } from '@signalboard/core';
