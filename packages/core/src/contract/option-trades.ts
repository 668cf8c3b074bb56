import { z } from 'zod';
import { ideaStamps } from './trades';

/**
 * The option trades of screen options2 (`GET api/get_combined_options_data`, issue 12): spec §3
 * "Option trade" first, then the fields docs/rules/option-trades.md §4.4 adds, then the stamps every idea row
 * carries (docs/rules/conventions.md §0.4 "Rows"; ExitValue is the option's exit, ExitPrice the same value so
 * that code reading every engine's ExitPrice gets the idea's exit). Rows are the fold of the
 * idea's events. Values are per share of the option (dollars), as the screen shows them.
 */

const isoInstant = z.string();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD');
const flag = z.enum(['1', '0']);

export const optionSide = z.enum(['CALL', 'PUT']);
export type OptionSide = z.infer<typeof optionSide>;
export const optionAlertKind = z.enum(['breakout', 'bounce', 'breakdown', 'rejection']);
export type OptionAlertKind = z.infer<typeof optionAlertKind>;
export type OptionStatus = 'Active' | 'Successful' | 'Failed';

export const optionTrade = z.object({
  /** The idea id (save_user_option_alerts takes it); also sent as Id. */
  OptionsChainId: z.string(),
  Symbol: z.string(),
  /** Compact OCC: root + YYMMDD + C/P + strike × 1000 as 8 digits, e.g. AAPL260116C00250000. */
  ContractName: z.string(),
  /** The `opened` pass (ISO 8601 UTC). */
  CreatedDate: isoInstant,
  Expiry: isoDate,
  Side: optionSide,
  /** The entry fill; the close-t value while the entry is pending. */
  EntryValue: z.number(),
  Current_Value: z.number(),
  Strike: z.number(),
  /** (Current_Value / EntryValue − 1) × 100, 2 decimals (the exit value once closed; 0 while pending). */
  ProfitPercent: z.number(),
  /** The underlying's last price. */
  CurrentPriceStock: z.number(),
  LastUpdatedDate: isoInstant,
  IsActive: z.boolean(),
  IsTargetHit: z.boolean(),
  /** SwingCheck = '1' (the "Level System" badge). */
  IsLevel: z.boolean(),
  /** Created less than 24 hours ago. */
  NewTrade: z.boolean(),
  VolumeSpikeCheck: flag,
  VolumeSwingCheck: flag,
  SwingCheck: flag,
  RSIStatus: z.enum(['oversold', 'overbought', 'neutral']),
  /** Beyond the spec (docs/rules/option-trades.md §4.4). */
  AlertKind: optionAlertKind,
  AlertCount: z.number().int().positive(),
  StrengthScore: z.number().int().min(0).max(100),
  PriceSource: z.enum(['chain', 'model']),
  /** The trade's (sticky) volatility, a fraction (0.25 = 25 %). */
  Sigma: z.number(),
  DeltaAtEntry: z.number(),
  EarningsInWindow: z.boolean(),
  Status: z.enum(['Active', 'Successful', 'Failed']),
  ExitValue: z.number().nullable(),
  /** Stamps (docs/rules/conventions.md §0.4); ExitPrice is the option's exit value, like ExitValue. */
  ...ideaStamps,
});
export type OptionTrade = z.infer<typeof optionTrade>;
/** GET api/get_combined_options_data */
export const optionTradesResponse = z.array(optionTrade);
