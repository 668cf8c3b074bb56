import { describe, expect, it } from 'vitest';
import { fieldsOf, exprToGroups } from './ast';
import { parseFormula, printFormula } from './formula';
import { SCAN_TEMPLATES } from './templates';

describe('SCAN_TEMPLATES', () => {
  it('are the four starter scans the issue names, each with a distinct key and name', () => {
    expect(SCAN_TEMPLATES.map((template) => template.name)).toEqual(['Oversold in an uptrend', '52-week-high breakout on volume', 'Pullback to the 50-day average', 'Gap-down reversal']);
    expect(new Set(SCAN_TEMPLATES.map((template) => template.key)).size).toBe(SCAN_TEMPLATES.length);
  });

  it.each(SCAN_TEMPLATES.map((template) => [template.name, template] as const))('%s parses, is written canonically and fits the builder', (_name, template) => {
    const expr = parseFormula(template.formula);
    expect(printFormula(expr)).toBe(template.formula);
    expect(exprToGroups(expr)).not.toBeNull();
    expect(fieldsOf(expr).length).toBeGreaterThan(1);
  });
});
