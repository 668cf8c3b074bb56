import { ActionIcon, Group, NumberInput, Paper, Select, Text, TextInput } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import { useId, type CSSProperties } from 'react';
import { TONE } from '../../theme';
import {
  fieldOf,
  MAX_WITHIN_SESSIONS,
  NUMBER_OPS,
  TEXT_OPS,
  withField,
  withRightField,
  type CatalogField,
  type NumberDraft,
  type RowDraft,
  type RowOp,
} from './builder-model';

/**
 * Each input grows from its basis and wraps as a whole: on a phone a field and its parameter share a
 * line, and so do the operator and what it compares with.
 */
const NARROW: CSSProperties = { flex: '1 1 5rem', minWidth: '5rem', maxWidth: '10rem' };
const MEDIUM: CSSProperties = { flex: '1 1 9rem', minWidth: '9rem' };
const WIDE: CSSProperties = { flex: '2 1 9rem', minWidth: '9rem' };
/** The row's field: wide enough for the longest label, no wider. */
const FIELD: CSSProperties = { ...WIDE, maxWidth: '22rem' };

const capitalized = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A field's parameters: a choice list (the range windows) or a whole number in its range. */
function ParamInputs({
  spec,
  values,
  onChange,
  labelOf,
  width = NARROW,
}: {
  spec: CatalogField | undefined;
  values: NumberDraft[];
  onChange: (values: NumberDraft[]) => void;
  labelOf: (name: string) => string;
  width?: CSSProperties;
}) {
  if (!spec) return null;
  return spec.params.map((param, index) => {
    const value = values[index] ?? '';
    const set = (next: NumberDraft) => onChange(spec.params.map((_, i) => (i === index ? next : (values[i] ?? ''))));
    const label = labelOf(capitalized(param.name));
    if (param.choices) {
      return (
        <Select
          key={param.name}
          label={label}
          data={param.choices.map(String)}
          value={value === '' ? null : String(value)}
          onChange={(next) => next !== null && set(Number(next))}
          allowDeselect={false}
          style={width}
        />
      );
    }
    return <NumberInput key={param.name} label={label} value={value} onChange={set} min={param.min} max={param.max} allowDecimal={false} allowNegative={false} style={width} />;
  });
}

/**
 * One condition of the builder: the field and its parameters, the operator, and what the operator
 * compares with (a number or another field; a range; a cross within N sessions; a text field's
 * value or list). Every input has its own label; the row is a group named after its place.
 */
export function ConditionRow({
  row,
  label,
  catalog,
  problem,
  onChange,
  onRemove,
}: {
  row: RowDraft;
  /** 'All of (AND), condition 2'. */
  label: string;
  catalog: readonly CatalogField[];
  problem: string | undefined;
  onChange: (row: RowDraft) => void;
  onRemove: () => void;
}) {
  const problemId = useId();
  const spec = fieldOf(catalog, row.field);
  const text = spec?.kind === 'text';
  const fieldOptions = catalog.map((field) => ({ value: field.name, label: field.label }));
  const numberFields = catalog.filter((field) => field.kind === 'number').map((field) => ({ value: field.name, label: field.label }));
  const ops = text ? TEXT_OPS : NUMBER_OPS;
  const comparesOperand = !text && row.op !== 'between';
  const crosses = row.op === 'crosses above' || row.op === 'crosses below';

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'xs', sm: 'sm' }}
      role="group"
      aria-label={label}
      aria-describedby={problem ? problemId : undefined}
      style={problem ? { borderColor: 'var(--mantine-color-error)' } : undefined}
    >
      <Group align="flex-end" gap="xs" wrap="nowrap">
        <Group align="flex-end" gap="xs" wrap="wrap" style={{ flex: 1, minWidth: 0 }}>
          <Select label="Field" data={fieldOptions} value={row.field} onChange={(next) => next && onChange(withField(row, catalog, next))} allowDeselect={false} style={FIELD} />
          <ParamInputs spec={spec} values={row.params} onChange={(params) => onChange({ ...row, params })} labelOf={(name) => name} />
        </Group>
        <ActionIcon variant="subtle" color="gray" size="md" mb={4} aria-label={`Remove ${label}`} onClick={onRemove}>
          <IconX size={18} aria-hidden />
        </ActionIcon>
      </Group>
      <Group align="flex-end" gap="sm" wrap="wrap" mt="xs">
        <Select
          label="Operator"
          data={ops.map((op) => ({ value: op.value, label: op.label }))}
          value={row.op}
          onChange={(next) => next && onChange({ ...row, op: next as RowOp })}
          allowDeselect={false}
          style={MEDIUM}
        />
        {text && (
          <TextInput
            label={row.op === 'in' || row.op === 'not in' ? 'Values (separated by commas)' : 'Value'}
            value={row.text}
            onChange={(event) => onChange({ ...row, text: event.currentTarget.value })}
            style={WIDE}
          />
        )}
        {!text && row.op === 'between' && (
          <>
            <NumberInput label="Low" value={row.low} onChange={(low) => onChange({ ...row, low })} style={NARROW} />
            <NumberInput label="High" value={row.high} onChange={(high) => onChange({ ...row, high })} style={NARROW} />
          </>
        )}
        {comparesOperand && (
          <>
            <Select
              label="Compare with"
              data={[
                { value: 'number', label: 'a number' },
                { value: 'field', label: 'another field' },
              ]}
              value={row.right.kind}
              onChange={(next) => next && onChange({ ...row, right: { ...row.right, kind: next as 'number' | 'field' } })}
              allowDeselect={false}
              style={MEDIUM}
            />
            {row.right.kind === 'number' ? (
              <NumberInput label="Value" value={row.right.value} onChange={(value) => onChange({ ...row, right: { ...row.right, value } })} style={NARROW} />
            ) : (
              <>
                <Select label="Other field" data={numberFields} value={row.right.field} onChange={(next) => next && onChange(withRightField(row, catalog, next))} allowDeselect={false} style={WIDE} />
                <ParamInputs
                  spec={fieldOf(catalog, row.right.field)}
                  values={row.right.params}
                  onChange={(params) => onChange({ ...row, right: { ...row.right, params } })}
                  labelOf={(name) => `Other field's ${name.toLowerCase()}`}
                  width={MEDIUM}
                />
              </>
            )}
          </>
        )}
        {crosses && (
          <NumberInput
            label="Within (sessions)"
            value={row.within}
            onChange={(within) => onChange({ ...row, within })}
            min={1}
            max={MAX_WITHIN_SESSIONS}
            allowDecimal={false}
            allowNegative={false}
            style={{ ...MEDIUM, maxWidth: '12rem' }}
          />
        )}
      </Group>
      {spec && (
        <Text size="xs" c="dimmed" mt={6}>
          {spec.description}
        </Text>
      )}
      {problem && (
        <Text id={problemId} size="sm" c={TONE.failure} mt={4}>
          {problem}
        </Text>
      )}
    </Paper>
  );
}
