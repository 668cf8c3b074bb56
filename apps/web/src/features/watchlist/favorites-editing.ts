/**
 * The editing state of the favourites screen (spec §3 "Editing state of the favourites screen",
 * §4 "Favourites editing", §7 notes): the favourites list, the symbols pending deletion, the
 * changed flag and the Canadian-search flag.
 *
 * While nothing has changed the screen shows the saved list as the server has it (`draft` is null);
 * the first edit copies it into a draft. Cancel and a successful save drop the draft again.
 */

export interface FavoriteRow {
  symbol: string;
  description: string;
}

export interface FavoritesDraft {
  favorites: FavoriteRow[];
  /** Symbols removed since the last save, sent to delete_favorite_stocks on Save. */
  pendingDeletions: string[];
}

export interface EditingState {
  /** null while unchanged (spec §4: Save and Cancel return to unchanged). */
  draft: FavoritesDraft | null;
  /** 'Search Canadian Stocks': the lookup asks exchange TO instead of US (spec §5). */
  canadian: boolean;
}

export type EditingAction =
  /** A search match was picked: removed (and queued for deletion) if already a favourite, else added. */
  | { type: 'toggle'; stock: FavoriteRow; saved: readonly FavoriteRow[] }
  /** Import's "Add N to favorites": each stock not in the list is added (never toggled off). */
  | { type: 'add'; stocks: readonly FavoriteRow[]; saved: readonly FavoriteRow[] }
  /** The × of a row: removed and queued for deletion. */
  | { type: 'remove'; symbol: string; saved: readonly FavoriteRow[] }
  /** Cancel, or a save that went through: back to the saved list, unchanged. */
  | { type: 'discard' }
  | { type: 'setCanadian'; canadian: boolean };

export const initialEditingState: EditingState = { draft: null, canadian: false };

/** Symbols compare trimmed and case-blind (favourites are stored trimmed and upper-cased). */
export const sameSymbol = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

const startDraft = (state: EditingState, saved: readonly FavoriteRow[]): FavoritesDraft =>
  state.draft ?? { favorites: [...saved], pendingDeletions: [] };

const queue = (pending: string[], symbol: string) =>
  pending.some((queued) => sameSymbol(queued, symbol)) ? pending : [...pending, symbol.trim().toUpperCase()];

export function editingReducer(state: EditingState, action: EditingAction): EditingState {
  switch (action.type) {
    case 'toggle': {
      const draft = startDraft(state, action.saved);
      const present = draft.favorites.some((row) => sameSymbol(row.symbol, action.stock.symbol));
      if (present) {
        return {
          ...state,
          draft: {
            favorites: draft.favorites.filter((row) => !sameSymbol(row.symbol, action.stock.symbol)),
            pendingDeletions: queue(draft.pendingDeletions, action.stock.symbol),
          },
        };
      }
      const added = { symbol: action.stock.symbol.trim().toUpperCase(), description: action.stock.description.trim() };
      return {
        ...state,
        draft: {
          favorites: [...draft.favorites, added],
          // Added back before saving: no longer to be deleted (the save never deletes what the list holds).
          pendingDeletions: draft.pendingDeletions.filter((queued) => !sameSymbol(queued, added.symbol)),
        },
      };
    }
    case 'add': {
      const draft = startDraft(state, action.saved);
      const favorites = [...draft.favorites];
      for (const stock of action.stocks) {
        if (favorites.some((row) => sameSymbol(row.symbol, stock.symbol))) continue;
        favorites.push({ symbol: stock.symbol.trim().toUpperCase(), description: stock.description.trim() });
      }
      if (favorites.length === draft.favorites.length) return state;
      return {
        ...state,
        draft: { favorites, pendingDeletions: draft.pendingDeletions.filter((queued) => !favorites.some((row) => sameSymbol(row.symbol, queued))) },
      };
    }
    case 'remove': {
      const draft = startDraft(state, action.saved);
      return {
        ...state,
        draft: {
          favorites: draft.favorites.filter((row) => !sameSymbol(row.symbol, action.symbol)),
          pendingDeletions: queue(draft.pendingDeletions, action.symbol),
        },
      };
    }
    case 'discard':
      return { ...state, draft: null };
    case 'setCanadian':
      return { ...state, canadian: action.canadian };
  }
}

/** What the screen shows: the draft while changed, else the saved list. */
export function editingView(state: EditingState, saved: readonly FavoriteRow[]) {
  return {
    favorites: state.draft?.favorites ?? saved,
    pendingDeletions: state.draft?.pendingDeletions ?? [],
    changed: state.draft !== null,
    canadian: state.canadian,
  };
}

export interface SavePlan {
  /** delete_favorite_stocks is sent when the deletion list is non-empty… */
  deleteSymbols: string[] | null;
  /** …and batch_update_favorite_stocks when the favourites list is non-empty, independently (spec §7). */
  upsertStocks: FavoriteRow[] | null;
}

export function savePlan(state: EditingState): SavePlan {
  const draft = state.draft;
  if (!draft) return { deleteSymbols: null, upsertStocks: null };
  return {
    deleteSymbols: draft.pendingDeletions.length > 0 ? [...draft.pendingDeletions] : null,
    upsertStocks: draft.favorites.length > 0 ? draft.favorites.map((row) => ({ ...row })) : null,
  };
}
