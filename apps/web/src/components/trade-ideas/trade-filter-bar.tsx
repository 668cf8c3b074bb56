import './mantine-styles';
import { Checkbox, Group, Paper, Stack, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useId } from 'react';
import { dateRangeError, type DateSymbolFilter } from './filter-values';

/** One status checkbox: its key in the screen's filter state and its label (the spec's wording). */
export interface StatusOption<K extends string> {
  key: K;
  label: string;
}

/**
 * A set of checkboxes under one heading ('Trend Based'); no heading for a screen's only set. Under a
 * heading each checkbox's name starts with it ('Trend Based Successful'), so every name is unique.
 */
export interface StatusGroup<K extends string> {
  legend?: string;
  options: StatusOption<K>[];
}

interface TradeFilterBarProps<K extends string> {
  /** Name of the bar's landmark (e.g. 'Trade filters'). */
  label: string;
  groups: StatusGroup<K>[];
  statuses: Record<K, boolean>;
  onStatusesChange: (next: Record<K, boolean>) => void;
  filter: DateSymbolFilter;
  onFilterChange: (next: DateSymbolFilter) => void;
}

/**
 * The trade screens' one filter bar (docs/ui.md "Filters sit in one bar"): status checkboxes, From Date
 * and To Date (native date inputs, in the browser's time zone) and Search by Symbol, each with its
 * visible label. The list updates as they change.
 */
export function TradeFilterBar<K extends string>({ label, groups, statuses, onStatusesChange, filter, onFilterChange }: TradeFilterBarProps<K>) {
  const rangeError = dateRangeError(filter);
  return (
    <Paper withBorder radius="md" p="md" component="section" role="search" aria-label={label}>
      <Stack gap="sm">
        <Group gap="lg" align="flex-start">
          {groups.map((group, index) => (
            <CheckboxSet key={group.legend ?? index} group={group} statuses={statuses} onChange={onStatusesChange} />
          ))}
        </Group>
        <Group gap="sm" align="flex-start" grow preventGrowOverflow={false} wrap="wrap">
          <TextInput
            type="date"
            label="From Date"
            value={filter.from}
            max={filter.to || undefined}
            onChange={(event) => onFilterChange({ ...filter, from: event.currentTarget.value })}
            miw={150}
          />
          <TextInput
            type="date"
            label="To Date"
            value={filter.to}
            min={filter.from || undefined}
            onChange={(event) => onFilterChange({ ...filter, to: event.currentTarget.value })}
            error={rangeError}
            miw={150}
          />
          <SymbolSearchInput value={filter.symbol} onChange={(symbol) => onFilterChange({ ...filter, symbol })} />
        </Group>
      </Stack>
    </Paper>
  );
}

function CheckboxSet<K extends string>({
  group,
  statuses,
  onChange,
}: {
  group: StatusGroup<K>;
  statuses: Record<K, boolean>;
  onChange: (next: Record<K, boolean>) => void;
}) {
  const legendId = useId();
  const boxes = (
    <Group gap="md">
      {group.options.map((option) => (
        <Checkbox
          key={option.key}
          label={
            group.legend ? (
              <>
                <VisuallyHidden>{group.legend}</VisuallyHidden> {option.label}
              </>
            ) : (
              option.label
            )
          }
          checked={statuses[option.key]}
          onChange={(event) => onChange({ ...statuses, [option.key]: event.currentTarget.checked })}
        />
      ))}
    </Group>
  );
  if (!group.legend) return boxes;
  return (
    <Stack gap={6} role="group" aria-labelledby={legendId}>
      <Text id={legendId} size="sm" fw={600}>
        {group.legend}
      </Text>
      {boxes}
    </Stack>
  );
}

/** 'Search by Symbol' (spec wording), the trade screens' one symbol search box. */
export function SymbolSearchInput({ value, onChange, placeholder = 'e.g. AAPL' }: { value: string; onChange: (symbol: string) => void; placeholder?: string }) {
  return (
    <TextInput
      label="Search by Symbol"
      placeholder={placeholder}
      value={value}
      maxLength={20}
      leftSection={<IconSearch size={16} aria-hidden />}
      autoComplete="off"
      spellCheck={false}
      onChange={(event) => onChange(event.currentTarget.value)}
      miw={180}
    />
  );
}
