import { Checkbox, Group, NativeSelect, SimpleGrid, Stack, Text } from '@mantine/core';
import { PRICE_DATE_FORMATS, PRICE_SEPARATORS, type PriceFileFormatBody } from '@signalboard/core';

type Role = keyof PriceFileFormatBody['mapping'];

/** The roles a column can take, in the file's usual order; the first five are required. */
export const ROLES: ReadonlyArray<{ role: Role; label: string; required: boolean }> = [
  { role: 'date', label: 'Date', required: true },
  { role: 'open', label: 'Open', required: true },
  { role: 'high', label: 'High', required: true },
  { role: 'low', label: 'Low', required: true },
  { role: 'close', label: 'Close', required: true },
  { role: 'adj_close', label: 'Adj Close', required: false },
  { role: 'volume', label: 'Volume', required: false },
  { role: 'symbol', label: 'Symbol', required: false },
];

const SEPARATOR_NAMES: Record<string, string> = { ',': 'Comma (,)', ';': 'Semicolon (;)', '\t': 'Tab', '|': 'Pipe (|)' };
const LAYOUT_NAMES: Record<PriceFileFormatBody['layout'], string> = { yahoo: 'Yahoo', stooq: 'Stooq', custom: 'Other (columns mapped)' };
const NONE = 'none';

/** What the preview starts from when the server could not tell the format: the common layout's first five columns. */
export function fallbackFormat(): PriceFileFormatBody {
  return {
    layout: 'custom',
    separator: ',',
    decimal_comma: false,
    date_format: 'YYYY-MM-DD',
    header: true,
    mapping: { date: 0, open: 1, high: 2, low: 3, close: 4, adj_close: null, volume: null, symbol: null },
  };
}

/**
 * How the file is read: its layout, separator, date format, decimal comma and header, and the column
 * of each role (options from the file's header, else "Column n"). Every change is a new preview.
 */
export function PriceFormatEditor({
  format,
  headers,
  columns,
  onChange,
}: {
  format: PriceFileFormatBody;
  headers: readonly string[];
  /** How many columns the sample has (when there is no header). */
  columns: number;
  onChange: (format: PriceFileFormatBody) => void;
}) {
  const width = Math.max(headers.length, columns, 1);
  const columnOptions = Array.from({ length: width }, (_, index) => ({ value: String(index), label: headers[index] ? `${index + 1}. ${headers[index]}` : `Column ${index + 1}` }));
  const change = (next: Partial<PriceFileFormatBody>) => onChange({ ...format, ...next });
  const changeRole = (role: Role, value: string) => onChange({ ...format, layout: 'custom', mapping: { ...format.mapping, [role]: value === NONE ? null : Number(value) } });

  return (
    <Stack gap="sm">
      <Text size="sm">
        Read as <strong>{LAYOUT_NAMES[format.layout]}</strong>: {SEPARATOR_NAMES[format.separator] ?? format.separator} separated, dates {format.date_format}
        {format.decimal_comma ? ', decimal comma' : ''}
        {format.header ? ', first line is a header' : ', no header'}.
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm" verticalSpacing="xs">
        <NativeSelect
          label="Separator"
          value={format.separator}
          data={PRICE_SEPARATORS.map((separator) => ({ value: separator, label: SEPARATOR_NAMES[separator] ?? separator }))}
          onChange={(event) => change({ separator: event.currentTarget.value as PriceFileFormatBody['separator'], layout: 'custom' })}
        />
        <NativeSelect
          label="Date format"
          value={format.date_format}
          data={[...PRICE_DATE_FORMATS]}
          onChange={(event) => change({ date_format: event.currentTarget.value as PriceFileFormatBody['date_format'] })}
        />
      </SimpleGrid>
      <Group gap="lg">
        <Checkbox label="Decimal comma (12,5)" checked={format.decimal_comma} onChange={(event) => change({ decimal_comma: event.currentTarget.checked })} />
        <Checkbox label="First line is a header" checked={format.header} onChange={(event) => change({ header: event.currentTarget.checked })} />
      </Group>
      <fieldset style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Text component="legend" size="sm" fw={600} mb={4}>
          Columns
        </Text>
        <SimpleGrid cols={{ base: 2, xs: 3, md: 4 }} spacing="sm" verticalSpacing="xs">
          {ROLES.map(({ role, label, required }) => (
            <NativeSelect
              key={role}
              label={label}
              value={format.mapping[role] === null ? NONE : String(format.mapping[role])}
              data={required ? columnOptions : [{ value: NONE, label: 'None' }, ...columnOptions]}
              onChange={(event) => changeRole(role, event.currentTarget.value)}
            />
          ))}
        </SimpleGrid>
      </fieldset>
    </Stack>
  );
}
