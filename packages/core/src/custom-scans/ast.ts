/**
 * The one model of a custom scan (issue 26, docs/custom-scans.md): the builder's rows and the formula
 * both parse into it, the interpreter evaluates it, and the printer turns it back into a formula.
 *
 * A scan is an expression of conditions joined by `and`, `or` and `not`. The builder shows the shape
 * most scans have as three groups, all of (AND), any of (OR) and none of (NOT):
 *   all₁ and all₂ and … and (any₁ or any₂ or …) and not (none₁ or none₂ or …)
 * `groupsToExpr` and `exprToGroups` convert between the two; a formula nested in another way is
 * still a scan, edited as a formula (`exprToGroups` answers null for it).
 */

/** A field with its parameters, in the catalogue's order, every default filled in (fields.ts). */
export interface FieldRef {
  field: string;
  params: number[];
}

export type Comparison = '<' | '<=' | '>' | '>=' | '=' | '!=';
export const COMPARISONS: readonly Comparison[] = ['<', '<=', '>', '>=', '=', '!='];

/** The right side of a comparison or a cross: a number, or another field of the same symbol. */
export type Operand = { kind: 'number'; value: number } | { kind: 'field'; ref: FieldRef };

export type Condition =
  /** `rsi(14) < 30`, `close > sma(200)` */
  | { kind: 'compare'; left: FieldRef; op: Comparison; right: Operand }
  /** `rsi(14) between 30 and 50`: low ≤ value ≤ high */
  | { kind: 'between'; left: FieldRef; low: number; high: number }
  /**
   * `rsi(14) crosses above 30 within 3`: on one of the last `within` sessions (today counts as the
   * first; 1 means today) the left side went from at or below the right side the session before to
   * above it (`below`: from at or above to below).
   */
  | { kind: 'cross'; left: FieldRef; direction: 'above' | 'below'; right: Operand; within: number }
  /** A text field: `sector = "Energy"`, `exchange in ("NYSE", "NASDAQ")`; `negated` for `!=` / `not in`. */
  | { kind: 'in'; left: FieldRef; values: string[]; negated: boolean };

export type ScanExpr = Condition | { kind: 'and'; items: ScanExpr[] } | { kind: 'or'; items: ScanExpr[] } | { kind: 'not'; item: ScanExpr };

/** The builder's three groups. An empty group adds nothing (no `any of` rows: no OR requirement). */
export interface ScanGroups {
  all: Condition[];
  any: Condition[];
  none: Condition[];
}

export const isCondition = (expr: ScanExpr): expr is Condition => expr.kind !== 'and' && expr.kind !== 'or' && expr.kind !== 'not';

/** The expression of the builder's groups; null when every group is empty (a scan needs a condition). */
export function groupsToExpr(groups: ScanGroups): ScanExpr | null {
  const items: ScanExpr[] = [...groups.all];
  if (groups.any.length === 1) items.push(groups.any[0]!);
  else if (groups.any.length > 1) items.push({ kind: 'or', items: [...groups.any] });
  if (groups.none.length === 1) items.push({ kind: 'not', item: groups.none[0]! });
  else if (groups.none.length > 1) items.push({ kind: 'not', item: { kind: 'or', items: [...groups.none] } });
  if (items.length === 0) return null;
  return items.length === 1 ? items[0]! : { kind: 'and', items };
}

/** A list of conditions joined by `or` (or one condition); null when the expression is anything else. */
function conditionsOfOr(expr: ScanExpr): Condition[] | null {
  if (isCondition(expr)) return [expr];
  if (expr.kind === 'or' && expr.items.every(isCondition)) return expr.items as Condition[];
  return null;
}

/**
 * The builder's groups of an expression, or null when it is nested in a way the three groups cannot
 * show: more than one `or` list, a `not` of anything but a condition or an `or` of conditions, an
 * `or` inside a `not` inside an `or`, and so on.
 */
export function exprToGroups(expr: ScanExpr): ScanGroups | null {
  const groups: ScanGroups = { all: [], any: [], none: [] };
  const terms = expr.kind === 'and' ? expr.items : [expr];
  let sawAny = false;
  let sawNone = false;
  for (const term of terms) {
    if (isCondition(term)) {
      groups.all.push(term);
    } else if (term.kind === 'or') {
      const any = conditionsOfOr(term);
      if (!any || sawAny) return null;
      sawAny = true;
      groups.any.push(...any);
    } else if (term.kind === 'not') {
      const none = conditionsOfOr(term.item);
      if (!none || sawNone) return null;
      sawNone = true;
      groups.none.push(...none);
    } else {
      return null;
    }
  }
  // A lone `or` is an any-of group; `a or b` at the top with nothing else is that too.
  return groups;
}

/** Every field a scan reads (left and right sides), each once, in order of first use. */
export function fieldsOf(expr: ScanExpr): FieldRef[] {
  const seen = new Map<string, FieldRef>();
  const add = (ref: FieldRef) => {
    const key = fieldKey(ref);
    if (!seen.has(key)) seen.set(key, ref);
  };
  const visit = (node: ScanExpr) => {
    if (node.kind === 'and' || node.kind === 'or') node.items.forEach(visit);
    else if (node.kind === 'not') visit(node.item);
    else {
      add(node.left);
      if ((node.kind === 'compare' || node.kind === 'cross') && node.right.kind === 'field') add(node.right.ref);
    }
  };
  visit(expr);
  return [...seen.values()];
}

/** One string per distinct field and parameters, e.g. `rsi(14)`, `close`: a column's and a cache's key. */
export function fieldKey(ref: FieldRef): string {
  return ref.params.length === 0 ? ref.field : `${ref.field}(${ref.params.join(',')})`;
}
