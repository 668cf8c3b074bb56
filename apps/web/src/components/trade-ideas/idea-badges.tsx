import './mantine-styles';
import { Badge, type BadgeProps } from '@mantine/core';
import { TONE } from '../../theme';
import { ImportedMarker } from '../imported-marker';

/** A status as the trade screens name it (spec §4): the word, in the meaning's colour. */
export type IdeaStatus = 'Active' | 'Successful' | 'Partial' | 'Failed';

const STATUS_COLOR: Record<IdeaStatus, BadgeProps['color']> = {
  Active: 'brand',
  Successful: TONE.success,
  Partial: TONE.middling,
  Failed: TONE.failure,
};

export function StatusBadge({ status }: { status: IdeaStatus }) {
  return (
    <Badge variant="light" color={STATUS_COLOR[status]} radius="sm">
      {status}
    </Badge>
  );
}

/** NEW: created within the last 24 hours (spec §4, §9); the row carries the flag. */
export function NewBadge() {
  return (
    <Badge variant="filled" color="brand" radius="sm">
      NEW
    </Badge>
  );
}

/**
 * What the idea is, beyond its status (docs/rules/conventions.md §0.5, §0.1): 'Replayed' for an idea produced by
 * running the rules over stored history (hypothetical), 'Pending entry' until the entry bar fills it.
 */
export function IdeaStampBadges({ origin, entryPending, imported }: { origin: 'replayed' | 'live'; entryPending: boolean; imported?: { symbol: string } | undefined }) {
  return (
    <>
      {/* Its figures come from an imported price file (ideaStamps.Imported). */}
      {imported ? <ImportedMarker symbol={imported.symbol} /> : null}
      {origin === 'replayed' ? (
        <Badge variant="outline" color={TONE.neutral} radius="sm" title="Hypothetical: produced by running the rules over stored history">
          Replayed
        </Badge>
      ) : null}
      {entryPending ? (
        <Badge variant="outline" color={TONE.middling} radius="sm" title="Enters at the next session's open; the entry shown is the signal close">
          Pending entry
        </Badge>
      ) : null}
    </>
  );
}

/** A plain tag (a trade type, 'Level System Based'). */
export function TagBadge({ children }: { children: string }) {
  return (
    <Badge variant="light" color={TONE.neutral} radius="sm">
      {children}
    </Badge>
  );
}
