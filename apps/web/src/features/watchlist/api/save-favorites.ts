import { useMutation, useQueryClient } from '@tanstack/react-query';
import { batchUpdateFavoriteStocks, deleteFavoriteStocks, favoritesQuery } from '../../../lib/api/favorites';
import type { FavoriteRow, SavePlan } from '../favorites-editing';

/**
 * Save of the favourites screen (spec §7 notes): delete_favorite_stocks when the deletion list is
 * non-empty and batch_update_favorite_stocks when the favourites list is non-empty, independently —
 * each is tried whatever the other did. The delete goes first, so a symbol removed and added back
 * can never be deleted after it was saved. The first failure is thrown (its message is the server's
 * msg) once both have been tried.
 */
export async function saveFavoriteChanges(plan: SavePlan): Promise<void> {
  const failures: unknown[] = [];
  if (plan.deleteSymbols) {
    try {
      await deleteFavoriteStocks({ symbols: plan.deleteSymbols });
    } catch (error) {
      failures.push(error);
    }
  }
  if (plan.upsertStocks) {
    try {
      await batchUpdateFavoriteStocks({ stocks: plan.upsertStocks });
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}

/**
 * On success the saved list is the one just sent (stored into the favourites' cache at once, then
 * refetched with the prices), so the screen never flashes the old list.
 */
export function useSaveFavorites() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ plan }: { plan: SavePlan; favorites: FavoriteRow[] }) => saveFavoriteChanges(plan),
    onSuccess: (_data, { favorites }) => {
      queryClient.setQueryData(favoritesQuery().queryKey, favorites);
      void queryClient.invalidateQueries({ queryKey: favoritesQuery().queryKey });
    },
  });
}
