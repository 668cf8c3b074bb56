import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { SaveAlertsResult } from '../../lib/api/saved-alerts';
import { notifyError, notifyInfo, notifySuccess } from '../notify';

/** The alert-saving messages of spec §5 and §8 (the failure text is the screen's own). */
export const ALERT_MESSAGES = {
  nothingSelected: 'No alerts selected.',
  noneActive: 'No active alerts selected to save.',
  saved: '✅ Alerts saved successfully!',
} as const;

/** Whether an item is active: true, false, or undefined when the screen has not loaded it. */
export type ActiveLookup = (id: string) => boolean | undefined;

export type SaveDecision = { kind: 'nothingSelected' } | { kind: 'noneActive' } | { kind: 'save'; ids: string[] };

/**
 * What pressing Save does (spec §5 "Option and drop alert saving"): nothing checked and nothing saved
 * before → 'No alerts selected.'; checked items none of which is still active → 'No active alerts
 * selected to save.'; otherwise the active checked ids are sent and become the saved set (none
 * checked with some saved before: the saved set is cleared, so a last alert can be removed). An item
 * the screen has not loaded is sent as it is: the server keeps only active ones and reports the rest.
 */
export function decideSave(checked: ReadonlySet<string>, saved: ReadonlySet<string>, isActive: ActiveLookup): SaveDecision {
  if (checked.size === 0) return saved.size === 0 ? { kind: 'nothingSelected' } : { kind: 'save', ids: [] };
  const ids = [...checked].filter((id) => isActive(id) !== false).sort();
  return ids.length === 0 ? { kind: 'noneActive' } : { kind: 'save', ids };
}

/**
 * A screen's saved alerts: the user's saved set (loaded once), the Alert checkboxes (starting as the
 * saved set), and Save with its messages as notifications. `save` receives the ids to keep.
 */
export function useSavedAlerts({
  key,
  load,
  save,
  isActive,
  failureMessage,
}: {
  key: string;
  load: (signal: AbortSignal) => Promise<string[]>;
  save: (ids: string[]) => Promise<SaveAlertsResult>;
  isActive: ActiveLookup;
  failureMessage: string;
}) {
  const client = useQueryClient();
  const queryKey = useMemo(() => ['saved-alerts', key] as const, [key]);
  const savedQuery = useQuery({ queryKey, queryFn: ({ signal }) => load(signal), staleTime: Infinity });
  const saved = useMemo(() => new Set(savedQuery.data ?? []), [savedQuery.data]);
  // null: untouched since the saved set was loaded or saved, so the boxes show the saved set.
  const [edited, setEdited] = useState<Set<string> | null>(null);
  const checked: ReadonlySet<string> = edited ?? saved;

  const toggle = useCallback(
    (id: string, on: boolean) =>
      setEdited((previous) => {
        const next = new Set(previous ?? saved);
        if (on) next.add(id);
        else next.delete(id);
        return next;
      }),
    [saved],
  );

  const mutation = useMutation({
    mutationFn: save,
    onSuccess: (result) => {
      client.setQueryData(queryKey, result.saved);
      setEdited(null);
      notifySuccess(ALERT_MESSAGES.saved);
      if (result.dropped.length > 0) {
        notifyInfo(`Not saved (${result.dropped.length}): ${result.dropped.map((item) => `${item.id} (${item.reason})`).join(', ')}.`);
      }
    },
    onError: () => notifyError(failureMessage),
  });

  const onSave = () => {
    const decision = decideSave(checked, saved, isActive);
    if (decision.kind === 'nothingSelected') notifyInfo(ALERT_MESSAGES.nothingSelected);
    else if (decision.kind === 'noneActive') notifyInfo(ALERT_MESSAGES.noneActive);
    else mutation.mutate(decision.ids);
  };

  return { savedQuery, saved, checked, toggle, onSave, saving: mutation.isPending };
}

/** A screen's saved alerts as useSavedAlerts answers them (what IdeaListSection takes). */
export type SavedAlerts = ReturnType<typeof useSavedAlerts>;
