/**
 * A scan as a call gives it (a formula, or the builder's groups) turned into the one model
 * (docs/custom-scans.md): groups become a formula (printFormula) and every formula is parsed
 * (parseFormula), so each limit and each name is checked in one place, whichever form came in, and
 * the answer carries both forms of the same scan.
 */
import { exprToGroups, FormulaError, groupsToExpr, parseFormula, printFormula, type ScanExpr, type ScanGroups, type ScanGroupsOutput } from '@signalboard/core';
import { badRequest } from '../../lib/errors';

export interface ScanDefinition {
  expr: ScanExpr;
  /** The canonical formula (what is stored and shown). */
  formula: string;
  /** The builder's groups of the same scan; null when its nesting does not fit them. */
  conditions: ScanGroups | null;
}

/** The definition of `formula` or `conditions` (the contract lets exactly one through); 400 with the parser's msg when it is no scan. */
export function scanDefinitionOf(input: { formula?: string | undefined; conditions?: ScanGroupsOutput | undefined }): ScanDefinition {
  let source: string;
  if (input.conditions !== undefined) {
    const built = groupsToExpr(input.conditions);
    if (!built) throw badRequest('Add at least one condition');
    source = printFormula(built);
  } else {
    source = input.formula ?? '';
  }
  let expr: ScanExpr;
  try {
    expr = parseFormula(source);
  } catch (error) {
    if (error instanceof FormulaError) throw badRequest(input.conditions !== undefined ? `${error.message} of the formula the conditions make (${source.slice(0, 200)})` : error.message);
    throw error;
  }
  return { expr, formula: printFormula(expr), conditions: exprToGroups(expr) };
}

/** The stored formula read back (it was parsed when saved, so a failure here is a bug, not bad input). */
export function storedDefinition(formula: string): ScanDefinition {
  const expr = parseFormula(formula);
  return { expr, formula, conditions: exprToGroups(expr) };
}
