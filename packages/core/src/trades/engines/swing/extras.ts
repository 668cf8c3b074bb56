/**
 * The swing engine's extras (docs/rules/swing.md §2): the common base (removals) and the earnings
 * calendar (EarningsSoon, §2.1), nothing of its own. The server's swing adapter builds them.
 */
import type { CommonExtras, EarningsExtras } from '../../types';

export type SwingExtras = CommonExtras & EarningsExtras;
