/**
 * The layered engine's extras (docs/rules/long-term.md §1): the common base only (removals: an index
 * exit closes the plan, §1.5). The server's long-term adapter supplies none.
 */
import type { CommonExtras } from '../../types';

export type LayeredExtras = CommonExtras;
