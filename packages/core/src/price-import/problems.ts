/**
 * A list of problems that reports each code's first MAX_PROBLEMS_PER_CODE one by one and counts the
 * rest: finish() adds one line per code saying how many more it had (naming the first of them).
 */
import type { PriceFileProblem, PriceProblemCode } from './types';

export const MAX_PROBLEMS_PER_CODE = 100;

const WARNINGS: ReadonlySet<PriceProblemCode> = new Set(['null-row', 'missing-sessions', 'closed-day', 'possible-split', 'short-series', 'holidays-unknown']);

export function severityOf(code: PriceProblemCode): PriceFileProblem['severity'] {
  return WARNINGS.has(code) ? 'warning' : 'error';
}

export class PriceProblemList {
  readonly problems: PriceFileProblem[] = [];
  private readonly counts = new Map<PriceProblemCode, { count: number; firstOverflowLine: number | null }>();
  private finished = false;

  add(line: number | null, code: PriceProblemCode, message: string): void {
    const seen = this.counts.get(code) ?? { count: 0, firstOverflowLine: null };
    seen.count += 1;
    if (seen.count === MAX_PROBLEMS_PER_CODE + 1) seen.firstOverflowLine = line;
    this.counts.set(code, seen);
    if (seen.count <= MAX_PROBLEMS_PER_CODE) this.problems.push({ line, severity: severityOf(code), code, message });
  }

  /** Adds the counts of what was left out (once). */
  finish(): PriceFileProblem[] {
    if (this.finished) return this.problems;
    this.finished = true;
    for (const [code, { count, firstOverflowLine }] of this.counts) {
      if (count <= MAX_PROBLEMS_PER_CODE) continue;
      const more = count - MAX_PROBLEMS_PER_CODE;
      const where = firstOverflowLine === null ? '' : `Line ${firstOverflowLine}: `;
      this.problems.push({ line: firstOverflowLine, severity: severityOf(code), code, message: `${where}and ${more} more like that (${code})` });
    }
    return this.problems;
  }

  get hasErrors(): boolean {
    return this.problems.some((problem) => problem.severity === 'error');
  }
}
