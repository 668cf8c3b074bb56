import { z } from 'zod';
import { singleLineText } from '../validation/text';
import { dropItemType } from './drop-items';

/**
 * Saved alerts (issue 12; spec §3 "Saved stock scanner alert", "Saved option alerts", §5 "Option
 * and drop alert saving"): per user, the option trades and drop items whose changes the alert
 * engine reports. A save replaces the user's whole set; ids of items that are unknown, closed or
 * (drop items) of another type are left out and reported in `dropped`, the rest saved.
 */

/** Most alerts one save may carry (and one user may keep, per screen). */
export const SAVED_ALERTS_MAX = 500;
/** Longest idea id accepted (store ids look like `drop.AAPL.2026-03-02.S@1.0.0`). */
export const SAVED_ALERT_ID_MAX = 200;

const ideaId = (name: string, example: string) =>
  singleLineText(name, {
    max: SAVED_ALERT_ID_MAX,
    typeError: `${name} must be text`,
    required: `${name} must not be empty`,
    examples: [example],
  });

/** POST api/save_user_option_alerts: the option trades' ids (their `Id`); an empty list clears them. */
export const saveUserOptionAlertsRequest = z.object({
  option_chain_ids: z
    .array(ideaId('Option trade id', 'options.SPY.2026-03-02@1.0.0'), { error: 'option_chain_ids must be a list of option trade ids' })
    .max(SAVED_ALERTS_MAX, `option_chain_ids may hold at most ${SAVED_ALERTS_MAX} ids`),
});
export type SaveUserOptionAlertsRequest = z.input<typeof saveUserOptionAlertsRequest>;

/** Why an id sent to a save was not kept. */
export const savedAlertDropReason = z.enum(['unknown', 'inactive', 'type_mismatch']);
export type SavedAlertDropReason = z.infer<typeof savedAlertDropReason>;

/**
 * The answer of POST api/save_user_option_alerts: `saved` is the user's set now (in the order sent,
 * each id once); `dropped` the ids left out and why (unknown: no option trade with that id;
 * inactive: the trade has closed).
 */
export const saveUserOptionAlertsResponse = z.object({
  msg: z.string(),
  saved: z.array(z.string()),
  dropped: z.array(z.object({ id: z.string(), reason: savedAlertDropReason })),
});
export type SaveUserOptionAlertsResponse = z.infer<typeof saveUserOptionAlertsResponse>;

/** GET api/get_user_option_alerts: the user's saved option alerts, oldest first. */
export const getUserOptionAlertsResponse = z.object({ option_chain_ids: z.array(z.string()) });
export type GetUserOptionAlertsResponse = z.infer<typeof getUserOptionAlertsResponse>;

/** One saved drop alert: the drop item's StockScannerId and its StockType. */
export const stockScannerAlert = z.object({
  stock_id: ideaId('stock_id', 'drop.AAPL.2026-03-02.S@1.0.0'),
  trade_type: z.enum(dropItemType.options, { error: 'trade_type must be S, L or O' }),
});
export type StockScannerAlert = z.output<typeof stockScannerAlert>;

/** POST api/save_user_stock_scanner_alerts: the drop items to alert on; an empty list clears them. */
export const saveUserStockScannerAlertsRequest = z.object({
  alerts: z
    .array(stockScannerAlert, { error: 'alerts must be a list of {stock_id, trade_type}' })
    .max(SAVED_ALERTS_MAX, `alerts may hold at most ${SAVED_ALERTS_MAX} alerts`),
});
export type SaveUserStockScannerAlertsRequest = z.input<typeof saveUserStockScannerAlertsRequest>;

/**
 * The answer of POST api/save_user_stock_scanner_alerts: `saved` is the user's set now; `dropped`
 * the alerts left out and why (unknown: no drop item with that id; inactive: deactivated;
 * type_mismatch: the item's StockType is not the trade_type sent).
 */
export const saveUserStockScannerAlertsResponse = z.object({
  msg: z.string(),
  saved: z.array(z.object({ stock_id: z.string(), trade_type: dropItemType })),
  dropped: z.array(z.object({ id: z.string(), trade_type: dropItemType, reason: savedAlertDropReason })),
});
export type SaveUserStockScannerAlertsResponse = z.infer<typeof saveUserStockScannerAlertsResponse>;

/** GET api/get_user_stock_scanner_alerts: the user's saved drop alerts, oldest first. */
export const getUserStockScannerAlertsResponse = z.object({
  alerts: z.array(z.object({ stock_id: z.string(), trade_type: dropItemType })),
});
export type GetUserStockScannerAlertsResponse = z.infer<typeof getUserStockScannerAlertsResponse>;
