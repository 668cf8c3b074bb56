import { Combobox, Group, Loader, Text, TextInput, useCombobox } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCheck, IconSearch } from '@tabler/icons-react';
import { useId, useState } from 'react';
import { useSymbolLookup } from './api/get-symbol-lookup';
import { useSymbolSearch } from './api/get-symbol-search';
import { sameSymbol, type FavoriteRow } from './favorites-editing';
import { lookupExchange, mergeSuggestions, searchTerm } from './symbol-suggestions';

/** Spec §9: the lookup waits for 300 ms of quiet; the dropdown is at most 150px tall and scrolls. */
export const SYMBOL_LOOKUP_DEBOUNCE_MS = 300;
export const SUGGESTIONS_MAX_HEIGHT_PX = 150;

interface SymbolSearchBoxProps {
  canadian: boolean;
  /** The favourites as shown (draft or saved): their matches are marked as selected. */
  favorites: readonly FavoriteRow[];
  onPick: (stock: FavoriteRow) => void;
  disabled?: boolean;
}

/**
 * 'Search Symbol' (spec §2, §5): symbol_lookup on the debounced term and symbol_search on every
 * input feed one dropdown of 'symbol - description'. A listbox whose selected options are the
 * favourites: picking one toggles it, then the input and the dropdown are cleared.
 */
export function SymbolSearchBox({ canadian, favorites, onPick, disabled }: SymbolSearchBoxProps) {
  const inputId = useId();
  const combobox = useCombobox({ onDropdownClose: () => combobox.resetSelectedOption() });
  const [input, setInput] = useState('');
  const term = searchTerm(input);
  const [debounced] = useDebouncedValue(term, SYMBOL_LOOKUP_DEBOUNCE_MS);
  const lookup = useSymbolLookup(term === '' ? '' : debounced, lookupExchange(canadian));
  const search = useSymbolSearch(term);
  // A failed call empties the list (spec §8); an empty input clears it (spec §5).
  const failed = lookup.isError || search.isError;
  const suggestions = term === '' || failed ? [] : mergeSuggestions(lookup.data?.result, search.data?.results);
  const busy = term !== '' && (search.isFetching || lookup.isFetching);
  const settled = term !== '' && !busy && debounced === term;

  function pick(symbol: string) {
    const stock = suggestions.find((row) => row.symbol === symbol);
    if (!stock) return;
    onPick(stock);
    setInput('');
    combobox.closeDropdown();
    combobox.resetSelectedOption();
  }

  const options = suggestions.map((row) => {
    const favorite = favorites.some((fav) => sameSymbol(fav.symbol, row.symbol));
    return (
      <Combobox.Option key={row.symbol} value={row.symbol} aria-selected={favorite}>
        <Group gap={8} wrap="nowrap">
          <IconCheck size={14} aria-hidden style={{ flexShrink: 0, visibility: favorite ? 'visible' : 'hidden' }} />
          <Text size="sm" span>
            {row.symbol} - {row.description}
          </Text>
        </Group>
      </Combobox.Option>
    );
  });

  let empty: string | null = null;
  if (failed) empty = 'The search is not available right now. Try again in a moment.';
  else if (settled && suggestions.length === 0) empty = 'No matching US or Canadian stocks.';

  return (
    <Combobox store={combobox} onOptionSubmit={pick} withinPortal={false} position="bottom-start" shadow="md">
      <Combobox.Target withExpandedAttribute>
        <TextInput
          id={inputId}
          label="Search Symbol"
          placeholder="Enter stock symbol or company name"
          description="Pick a match to add it; pick a ticked one to remove it."
          value={input}
          disabled={disabled}
          leftSection={<IconSearch size={16} aria-hidden />}
          rightSection={busy ? <Loader size={14} aria-label="Searching" /> : null}
          onChange={(event) => {
            setInput(event.currentTarget.value);
            combobox.resetSelectedOption();
            if (searchTerm(event.currentTarget.value) === '') combobox.closeDropdown();
            else combobox.openDropdown();
          }}
          onFocus={() => {
            if (term !== '') combobox.openDropdown();
          }}
          onBlur={() => combobox.closeDropdown()}
        />
      </Combobox.Target>
      <Combobox.Dropdown hidden={options.length === 0 && empty === null}>
        <Combobox.Options
          labelledBy={`${inputId}-label`}
          aria-multiselectable
          mah={SUGGESTIONS_MAX_HEIGHT_PX}
          style={{ overflowY: 'auto' }}
        >
          {options}
          {options.length === 0 && empty !== null && <Combobox.Empty>{empty}</Combobox.Empty>}
        </Combobox.Options>
      </Combobox.Dropdown>
    </Combobox>
  );
}
