import { exprToGroups, parseFormula, type RunScanRequest, type SaveScanRequest, type ScanGroups, type ScanUniverse } from '@signalboard/core';
import { useMemo, useState } from 'react';
import { emptyRows, formulaOfRows, groupsToRows, rowsToGroups, rowCount, type BuilderRows, type CatalogField } from './builder-model';
import { checkFormula } from './formula-model';

export type EditorMode = 'builder' | 'formula';

/** A scan to show in the editor: a saved one (with its id), a template, or a new one. */
export interface LoadedScan {
  id: number | null;
  name: string;
  universe: ScanUniverse;
  formula: string;
  conditions: ScanGroups | null;
}

/** The scan a new screen starts with: one condition to change (a template's first line). */
export const STARTING_FORMULA = 'rsi(14) < 30';

type Definition = Pick<RunScanRequest, 'universe' | 'formula' | 'conditions'>;
export type DefinitionCheck = { ok: true; definition: Definition } | { ok: false; problem: string };

/**
 * The editor's state (docs/custom-scans.md "One model"): the universe, the builder's rows and the
 * formula, kept in step. Editing rows changes the formula shown; typing a formula re-parses it at
 * once (core's parser) and, when its nesting fits the three groups, replaces the rows; when it does
 * not, the scan stays in formula mode. A run or a save sends the builder's groups (builder mode) or
 * the formula as typed (formula mode); the server answers both forms either way.
 */
export function useScanEditor(catalog: readonly CatalogField[]) {
  const [universe, setUniverse] = useState<ScanUniverse>('sp500');
  const [mode, setMode] = useState<EditorMode>('builder');
  const [rows, setRows] = useState<BuilderRows>(() => groupsToRows(exprToGroups(parseFormula(STARTING_FORMULA))!, catalog));
  const [formula, setFormula] = useState('');
  const [asOf, setAsOf] = useState('');
  const [name, setName] = useState('');
  const [openScanId, setOpenScanId] = useState<number | null>(null);
  /** Set by a run or save that found something missing: the rows say what from then on. */
  const [showProblems, setShowProblems] = useState(false);

  const builder = useMemo(() => rowsToGroups(rows, catalog), [rows, catalog]);
  const builderFormula = useMemo(() => formulaOfRows(rows, catalog), [rows, catalog]);
  const formulaCheck = useMemo(() => checkFormula(formula), [formula]);
  /** The builder can show the formula: it fits the groups (or is empty). */
  const fitsBuilder = formulaCheck.state === 'groups' || formulaCheck.state === 'empty';

  function editFormula(text: string) {
    setFormula(text);
    const check = checkFormula(text);
    if (check.state === 'groups') setRows(groupsToRows(check.groups, catalog));
    else if (check.state === 'empty') setRows(emptyRows());
  }

  function switchMode(next: EditorMode) {
    if (next === mode) return;
    if (next === 'formula') {
      setFormula(builderFormula);
      setMode('formula');
    } else if (fitsBuilder) {
      setMode('builder');
    }
  }

  function load(scan: LoadedScan) {
    setUniverse(scan.universe);
    setName(scan.name);
    setOpenScanId(scan.id);
    setFormula(scan.formula);
    setShowProblems(false);
    if (scan.conditions) {
      setRows(groupsToRows(scan.conditions, catalog));
      setMode('builder');
    } else {
      setRows(emptyRows());
      setMode('formula');
    }
  }

  /** A new, empty scan (nothing open). */
  function reset() {
    load({ id: null, name: '', universe, formula: '', conditions: { all: [], any: [], none: [] } });
  }

  /** The scan to send, or why there is none yet (then the rows show what is missing). */
  function definition(): DefinitionCheck {
    if (mode === 'formula') {
      if (formulaCheck.state === 'empty') return { ok: false, problem: 'Type a formula, or switch to the builder and add a condition.' };
      if (formulaCheck.state === 'error') return { ok: false, problem: `The formula has a mistake: ${formulaCheck.message}.` };
      return { ok: true, definition: { universe, formula } };
    }
    if (builder.problems.size > 0) {
      setShowProblems(true);
      const count = builder.problems.size;
      return { ok: false, problem: `${count} ${count === 1 ? 'condition is' : 'conditions are'} not complete: see the rows marked in red.` };
    }
    if (rowCount(rows) === 0) return { ok: false, problem: 'Add at least one condition.' };
    return { ok: true, definition: { universe, conditions: builder.groups } };
  }

  const runRequest = (): { ok: true; body: RunScanRequest } | { ok: false; problem: string } => {
    const checked = definition();
    return checked.ok ? { ok: true, body: { ...checked.definition, ...(asOf ? { as_of: asOf } : {}) } } : checked;
  };

  const saveRequest = (scanName: string): { ok: true; body: SaveScanRequest } | { ok: false; problem: string } => {
    const checked = definition();
    return checked.ok ? { ok: true, body: { name: scanName, ...checked.definition } } : checked;
  };

  return {
    universe,
    setUniverse,
    mode,
    switchMode,
    fitsBuilder,
    rows,
    setRows,
    problems: showProblems ? builder.problems : new Map<number, string>(),
    builderFormula,
    formula,
    editFormula,
    formulaCheck,
    asOf,
    setAsOf,
    name,
    setName,
    openScanId,
    setOpenScanId,
    load,
    reset,
    runRequest,
    saveRequest,
  };
}

export type ScanEditor = ReturnType<typeof useScanEditor>;
