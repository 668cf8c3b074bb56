import { z } from 'zod';
import { ideaStamps } from './trades';

/**
 * The drop items (issue 12, docs/rules/drop-items.md §5): GET api/get_stock_scanner_data. Rows are the fold of
 * the item's events (docs/rules/conventions.md §0.4): the spec's fields first (spec §3 "Drop scanner item"),
 * then the added ones and the stamps every idea row carries.
 */

const isoInstant = z.string();
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'must be a date, YYYY-MM-DD');

export const dropItemType = z.enum(['S', 'L', 'O']);
export const dropItemStatus = z.enum(['Active', 'Deactivated']);
export type DropItemStatus = z.infer<typeof dropItemStatus>;

/** Spec §3 "Drop scanner item" (docs/rules/drop-items.md §5.3). */
export const dropItem = z.object({
  /** The item id; `save_user_stock_scanner_alerts` sends it as stock_id. */
  StockScannerId: z.string(),
  StockType: dropItemType,
  StockSymbol: z.string(),
  StockIsActive: z.boolean(),
  /** The threshold the trigger used, percent, 2 decimals. */
  DropThreshold: z.number(),
  /** The open of t+1 (SignalPrice while pending). */
  StockEntryPrice: z.number(),
  StockCurrentPrice: z.number(),
  /** (P / StockEntryPrice − 1) × 100, 2 decimals; for O the underlying's move. */
  ProfitPercentage: z.number(),
  StockIsTarget: z.boolean(),
  TargetValue: z.number(),
  StockNews: z.string(),
  Sentiment: z.enum(['Positive', 'Negative', 'Neutral']),
  StockCreatedDate: isoInstant,
  StockUpdatedDate: isoInstant,
  StockSectorName: z.string().nullable(),
  /** O items only (null for S and L). */
  OptionChainId: z.string().nullable(),
  ContractName: z.string().nullable(),
  OptionExpiry: isoDate.nullable(),
  OptionEntryValue: z.number().nullable(),
  OptionCurrentValue: z.number().nullable(),
  OptionProfitPercent: z.number().nullable(),
  /** Beyond the spec. */
  DropObserved: z.number(),
  NewsTag: z.enum(['news-driven', 'no identifiable news']),
  LinkedSwingTradeId: z.string().nullable(),
  Status: dropItemStatus,
  /** O: the option's exit value once closed. */
  OptionExitValue: z.number().nullable(),
  /** Stamps (docs/rules/conventions.md §0.4); ExitPrice is the underlying's exit price (O items too). */
  ...ideaStamps,
});
export type DropItem = z.infer<typeof dropItem>;
/** GET api/get_stock_scanner_data */
export const dropItemsResponse = z.array(dropItem);
