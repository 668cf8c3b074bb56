import { authEndpoints, type MsgBody, type SessionSummary } from '@signalboard/core';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { apiCall } from '../../../lib/client';

/** GET api/sessions: where the signed-in user is signed in, most recently used first. */
export const sessionsQuery = () =>
  queryOptions({
    queryKey: ['account', 'sessions'],
    queryFn: async ({ signal }): Promise<SessionSummary[]> => (await apiCall(authEndpoints.listSessions, { signal })).sessions,
    retry: false,
    staleTime: 10_000,
  });

/** A mutation whose success reads the sessions again (what it changed shows in the list). */
function useSessionsChange<V>(run: (variables: V) => Promise<MsgBody>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: run, onSettled: () => client.invalidateQueries({ queryKey: sessionsQuery().queryKey }) });
}

/** POST api/end_session {id}. */
export const useEndSession = () => useSessionsChange((id: string) => apiCall(authEndpoints.endSession, { body: { id } }));

/** POST api/end_other_sessions: "Sign out other devices". */
export const useEndOtherSessions = () => useSessionsChange(() => apiCall(authEndpoints.endOtherSessions));

/** POST api/update-password with the current password (every other session ends with it). */
export const useChangePassword = () =>
  useSessionsChange((body: { current_password: string; new_password: string }) => apiCall(authEndpoints.updatePassword, { body }));
