/**
 * The builder's rows (docs/custom-scans.md "One model: the expression"): what the screen edits, and
 * how a row becomes a condition of the one model and back. A row holds what its inputs hold, so it
 * may be incomplete while the user types; `rowToCondition` answers the condition, or why there is
 * none yet. The formula of the rows is core's (groupsToExpr, printFormula), so what the builder
 * shows as a formula is exactly what the server prints.
 */
import { groupsToExpr, paramProblem, printFormula, type Comparison, type Condition, type FieldRef, type Operand, type ScanFieldsResponse, type ScanGroups } from '@signalboard/core';

/** A field of the catalogue as GET api/scans/fields answers it. */
export type CatalogField = ScanFieldsResponse['fields'][number];

/** What a NumberInput holds: a number, or the text being typed ('' when empty, '-' half-typed). */
export type NumberDraft = number | string;

export const GROUP_KEYS = ['all', 'any', 'none'] as const;
export type GroupKey = (typeof GROUP_KEYS)[number];
export const GROUP_LABELS: Record<GroupKey, string> = { all: 'All of (AND)', any: 'Any of (OR)', none: 'None of (NOT)' };
export const GROUP_HINTS: Record<GroupKey, string> = {
  all: 'Every one of these must hold.',
  any: 'At least one of these must hold.',
  none: 'None of these may hold.',
};

export type NumberOp = Comparison | 'between' | 'crosses above' | 'crosses below';
export type TextOp = 'is' | 'is not' | 'in' | 'not in';
export type RowOp = NumberOp | TextOp;

export const NUMBER_OPS: ReadonlyArray<{ value: NumberOp; label: string }> = [
  { value: '<', label: '< less than' },
  { value: '<=', label: '<= at most' },
  { value: '>', label: '> greater than' },
  { value: '>=', label: '>= at least' },
  { value: '=', label: '= equal to' },
  { value: '!=', label: '!= not equal to' },
  { value: 'between', label: 'between' },
  { value: 'crosses above', label: 'crosses above' },
  { value: 'crosses below', label: 'crosses below' },
];
export const TEXT_OPS: ReadonlyArray<{ value: TextOp; label: string }> = [
  { value: 'is', label: 'is' },
  { value: 'is not', label: 'is not' },
  { value: 'in', label: 'in list' },
  { value: 'not in', label: 'not in list' },
];

/** The right side of a comparison or a cross as the inputs hold it. */
export interface OperandDraft {
  kind: 'number' | 'field';
  value: NumberDraft;
  field: string;
  params: NumberDraft[];
}

export interface RowDraft {
  /** The row's key on screen (never sent). */
  id: number;
  field: string;
  params: NumberDraft[];
  op: RowOp;
  right: OperandDraft;
  low: NumberDraft;
  high: NumberDraft;
  within: NumberDraft;
  /** A text field's value ('is', 'is not'), or its values separated by commas ('in', 'not in'). */
  text: string;
}

export type BuilderRows = Record<GroupKey, RowDraft[]>;

export const MAX_WITHIN_SESSIONS = 250;

let nextId = 1;
const newId = () => nextId++;

export const emptyRows = (): BuilderRows => ({ all: [], any: [], none: [] });

const defaultsOf = (spec: CatalogField | undefined): NumberDraft[] => spec?.params.map((param) => param.default) ?? [];

/** Catalogue lookup by name. */
export const fieldOf = (catalog: readonly CatalogField[], name: string) => catalog.find((spec) => spec.name === name);

/** The first number field other than `name`: what "another field" starts with (the SMA for the price). */
function otherNumberField(catalog: readonly CatalogField[], name: string): CatalogField | undefined {
  return catalog.find((spec) => spec.kind === 'number' && spec.name !== name && spec.unit === fieldOf(catalog, name)?.unit) ?? catalog.find((spec) => spec.kind === 'number' && spec.name !== name);
}

/** A new row on `field` (the catalogue's first field by default): its defaults, and the value left to type. */
export function newRow(catalog: readonly CatalogField[], field = catalog[0]?.name ?? 'close'): RowDraft {
  const spec = fieldOf(catalog, field);
  const other = otherNumberField(catalog, field);
  return {
    id: newId(),
    field,
    params: defaultsOf(spec),
    op: spec?.kind === 'text' ? 'is' : '>',
    right: { kind: 'number', value: '', field: other?.name ?? field, params: defaultsOf(other) },
    low: '',
    high: '',
    within: 1,
    text: '',
  };
}

/** The row with another field: that field's default parameters; its operator kept when it still applies. */
export function withField(row: RowDraft, catalog: readonly CatalogField[], field: string): RowDraft {
  const before = fieldOf(catalog, row.field);
  const spec = fieldOf(catalog, field);
  const sameKind = before?.kind === spec?.kind;
  return { ...row, field, params: defaultsOf(spec), op: sameKind ? row.op : spec?.kind === 'text' ? 'is' : '>', text: sameKind ? row.text : '' };
}

/** The right side with another field and that field's default parameters. */
export const withRightField = (row: RowDraft, catalog: readonly CatalogField[], field: string): RowDraft => ({
  ...row,
  right: { ...row.right, field, params: defaultsOf(fieldOf(catalog, field)) },
});

function refDraft(ref: FieldRef): { field: string; params: NumberDraft[] } {
  return { field: ref.field, params: [...ref.params] };
}

/** A condition as a row (a formula or a saved scan shown in the builder). */
export function conditionToRow(condition: Condition, catalog: readonly CatalogField[]): RowDraft {
  const row = newRow(catalog, condition.left.field);
  const left = refDraft(condition.left);
  const operand = (right: Operand): OperandDraft =>
    right.kind === 'number' ? { ...row.right, kind: 'number', value: right.value } : { kind: 'field', value: '', ...refDraft(right.ref) };
  switch (condition.kind) {
    case 'compare':
      return { ...row, ...left, op: condition.op, right: operand(condition.right) };
    case 'between':
      return { ...row, ...left, op: 'between', low: condition.low, high: condition.high };
    case 'cross':
      return { ...row, ...left, op: condition.direction === 'above' ? 'crosses above' : 'crosses below', right: operand(condition.right), within: condition.within };
    case 'in': {
      const single = condition.values.length === 1;
      const op: TextOp = single ? (condition.negated ? 'is not' : 'is') : condition.negated ? 'not in' : 'in';
      return { ...row, ...left, op, text: single ? condition.values[0]! : condition.values.join(', ') };
    }
  }
}

export function groupsToRows(groups: ScanGroups, catalog: readonly CatalogField[]): BuilderRows {
  return { all: groups.all.map((c) => conditionToRow(c, catalog)), any: groups.any.map((c) => conditionToRow(c, catalog)), none: groups.none.map((c) => conditionToRow(c, catalog)) };
}

type Checked<T> = { ok: true; value: T } | { ok: false; problem: string };
const fail = (problem: string): { ok: false; problem: string } => ({ ok: false, problem });

const isNumber = (value: NumberDraft): value is number => typeof value === 'number' && Number.isFinite(value);

function checkRef(catalog: readonly CatalogField[], field: string, params: NumberDraft[], side: string): Checked<FieldRef> {
  const spec = fieldOf(catalog, field);
  if (!spec) return fail(`Choose ${side}.`);
  const numbers: number[] = [];
  for (const [i, param] of spec.params.entries()) {
    const value = params[i];
    if (value === undefined || !isNumber(value)) return fail(`Enter the ${param.name} of ${spec.label}.`);
    numbers.push(value);
  }
  const problem = paramProblem(spec, numbers);
  if (!problem) return { ok: true, value: { field: spec.name, params: numbers } };
  // Core names the field as formulas do ('rsi: period must be …'); the builder shows its label.
  const prefix = `${spec.name}: `;
  return fail(`${problem.startsWith(prefix) ? `${spec.label}: ${problem.slice(prefix.length)}` : problem}.`);
}

function checkOperand(catalog: readonly CatalogField[], right: OperandDraft): Checked<Operand> {
  if (right.kind === 'number') return isNumber(right.value) ? { ok: true, value: { kind: 'number', value: right.value } } : fail('Enter a value.');
  const spec = fieldOf(catalog, right.field);
  if (spec?.kind === 'text') return fail('Compare with a number field.');
  const ref = checkRef(catalog, right.field, right.params, 'the other field');
  return ref.ok ? { ok: true, value: { kind: 'field', ref: ref.value } } : ref;
}

/** A text field's values: the one value ('is', 'is not') or the list separated by commas. */
export function textValues(row: RowDraft): string[] {
  const parts = row.op === 'in' || row.op === 'not in' ? row.text.split(',') : [row.text];
  return parts.map((part) => part.trim()).filter((part) => part !== '');
}

/** The row as a condition, or the sentence that says what is missing. */
export function rowToCondition(row: RowDraft, catalog: readonly CatalogField[]): Checked<Condition> {
  const spec = fieldOf(catalog, row.field);
  const left = checkRef(catalog, row.field, row.params, 'a field');
  if (!left.ok || !spec) return left.ok ? fail('Choose a field.') : left;
  if (spec.kind === 'text') {
    const values = textValues(row);
    if (values.length === 0) return fail(row.op === 'in' || row.op === 'not in' ? 'Enter at least one value.' : 'Enter a value.');
    return { ok: true, value: { kind: 'in', left: left.value, values, negated: row.op === 'is not' || row.op === 'not in' } };
  }
  if (row.op === 'between') {
    if (!isNumber(row.low) || !isNumber(row.high)) return fail('Enter the low and the high value.');
    return { ok: true, value: { kind: 'between', left: left.value, low: row.low, high: row.high } };
  }
  const right = checkOperand(catalog, row.right);
  if (!right.ok) return right;
  if (row.op === 'crosses above' || row.op === 'crosses below') {
    if (!isNumber(row.within) || !Number.isInteger(row.within) || row.within < 1 || row.within > MAX_WITHIN_SESSIONS) {
      return fail(`Within must be a whole number of sessions from 1 to ${MAX_WITHIN_SESSIONS}.`);
    }
    return { ok: true, value: { kind: 'cross', left: left.value, direction: row.op === 'crosses above' ? 'above' : 'below', right: right.value, within: row.within } };
  }
  if (row.op === 'is' || row.op === 'is not' || row.op === 'in' || row.op === 'not in') return fail('Choose an operator for a number.');
  return { ok: true, value: { kind: 'compare', left: left.value, op: row.op, right: right.value } };
}

/** The rows as the builder's groups, and what is missing in each incomplete row (by row id). */
export function rowsToGroups(rows: BuilderRows, catalog: readonly CatalogField[]): { groups: ScanGroups; problems: Map<number, string> } {
  const problems = new Map<number, string>();
  const groups: ScanGroups = { all: [], any: [], none: [] };
  for (const key of GROUP_KEYS) {
    for (const row of rows[key]) {
      const checked = rowToCondition(row, catalog);
      if (checked.ok) groups[key].push(checked.value);
      else problems.set(row.id, checked.problem);
    }
  }
  return { groups, problems };
}

/** The formula of the complete rows ('' when there is none): what the builder shows under its groups. */
export function formulaOfRows(rows: BuilderRows, catalog: readonly CatalogField[]): string {
  const expr = groupsToExpr(rowsToGroups(rows, catalog).groups);
  return expr ? printFormula(expr) : '';
}

export const rowCount = (rows: BuilderRows) => rows.all.length + rows.any.length + rows.none.length;
