import { DEFAULT_THEME, defaultCssVariablesResolver, isVirtualColor, mergeMantineTheme, type MantineTheme } from '@mantine/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { contrastRatio, firstPassing, mix, parseHex, relativeLuminance, toHex } from './color-contrast';
import { cssVariablesResolver, surfaces, TEXT_CONTRAST, theme, themeVariablesKey, UI_CONTRAST, variantColorResolver } from './theme';

type Scheme = 'light' | 'dark';
const merged: MantineTheme = mergeMantineTheme(DEFAULT_THEME, theme);

/** The CSS variables a page in `scheme` sees, as MantineProvider writes them (defaults, then ours). */
function variablesOf(scheme: Scheme, resolver = cssVariablesResolver): Record<string, string> {
  const defaults = defaultCssVariablesResolver(merged);
  const ours = resolver(merged);
  return { ...defaults.variables, ...ours.variables, ...defaults[scheme], ...ours[scheme] };
}

/** A variable's colour with every var() reference followed, as #rrggbb. */
function resolve(variables: Record<string, string>, name: string): string {
  let value = variables[name];
  for (let depth = 0; value !== undefined && depth < 10; depth += 1) {
    const reference = /^var\((--[\w-]+)\)$/.exec(value.trim());
    if (!reference) break;
    value = variables[reference[1]!];
  }
  if (value === undefined) throw new Error(`${name} is not defined`);
  const rgba = /^rgba?\((\d+),\s*(\d+),\s*(\d+)(?:,\s*1)?\)$/.exec(value.trim());
  if (rgba) return toHex([Number(rgba[1]), Number(rgba[2]), Number(rgba[3])]);
  parseHex(value); // throws unless it is a plain colour
  return value;
}

const COLORS = Object.entries(merged.colors)
  .filter(([, tuple]) => !isVirtualColor(tuple))
  .map(([name]) => name);

/** Every pair of a foreground and background a screen can draw with the theme, with its minimum. */
function pairs(scheme: Scheme, resolver = cssVariablesResolver): Array<{ what: string; ratio: number; minimum: number }> {
  const variables = variablesOf(scheme, resolver);
  const color = (name: string) => resolve(variables, name);
  const base = surfaces(merged, scheme).map((value, index) => ({ name: `surface ${index}`, value }));
  const tinted = COLORS.filter((name) => name !== 'dark').map((name) => ({ name: `${name} tint`, value: color(`--mantine-color-${name}-light`) }));
  const out: Array<{ what: string; ratio: number; minimum: number }> = [];
  const check = (fg: string, backgrounds: Array<{ name: string; value: string }>, minimum: number) => {
    for (const bg of backgrounds) out.push({ what: `${fg} on ${bg.name}`, ratio: contrastRatio(color(fg), bg.value), minimum });
  };
  for (const name of COLORS) {
    const own = (suffix: string) => ({ name: `--mantine-color-${name}-${suffix}`, value: color(`--mantine-color-${name}-${suffix}`) });
    // c="green", gains and losses; outline badges; light badges, alerts and buttons (and subtle ones on the page).
    check(`--mantine-color-${name}-text`, [...base, own('light'), ...tinted], TEXT_CONTRAST);
    check(`--mantine-color-${name}-outline`, [...base, ...tinted], TEXT_CONTRAST);
    check(`--mantine-color-${name}-light-color`, [...base, own('light'), own('light-hover')], TEXT_CONTRAST);
    // Filled buttons and badges: the text on the fill, resting and hovered.
    check(`--mantine-color-${name}-contrast`, [own('filled'), own('filled-hover')], TEXT_CONTRAST);
  }
  check('--mantine-primary-color-contrast', [{ name: 'primary filled', value: color('--mantine-primary-color-filled') }], TEXT_CONTRAST);
  check('--mantine-color-text', [...base, ...tinted], TEXT_CONTRAST);
  check('--mantine-color-dimmed', [...base, { name: 'gray tint', value: color('--mantine-color-gray-light') }], TEXT_CONTRAST);
  check('--mantine-color-error', base, TEXT_CONTRAST);
  check('--mantine-color-placeholder', base, TEXT_CONTRAST);
  check('--mantine-color-anchor', base, TEXT_CONTRAST);
  check('--sb-control-border', base, UI_CONTRAST);
  check('--sb-focus-ring', base, UI_CONTRAST);
  return out;
}

describe('WCAG contrast', () => {
  it('computes relative luminance and contrast ratios as WCAG defines them', () => {
    expect(relativeLuminance('#000')).toBe(0);
    expect(relativeLuminance('#ffffff')).toBe(1);
    expect(contrastRatio('#000000', '#ffffff')).toBe(21);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
    // Mantine's dimmed grey on white, as axe measured it on every screen before the theme's tokens.
    expect(contrastRatio('#868e96', '#ffffff')).toBeCloseTo(3.32, 2);
    expect(mix('#ff0000', '#000000', 0.5)).toBe('#800000');
  });

  it('darkens a colour just enough to pass', () => {
    const passing = firstPassing(['#868e96'], ['#ffffff'], 4.5, '#000000');
    expect(contrastRatio(passing, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(contrastRatio(mix('#868e96', '#000000', 0.0), '#ffffff')).toBeLessThan(4.5);
    expect(firstPassing(['#111111'], ['#ffffff'], 4.5, '#000000')).toBe('#111111');
  });
});

describe.each(['light', 'dark'] as const)('theme tokens, %s scheme', (scheme) => {
  it('every text colour reaches 4.5:1 and every UI part 3:1 on what it is drawn on', () => {
    const failing = pairs(scheme)
      .filter((pair) => pair.ratio < pair.minimum)
      .map((pair) => `${pair.what}: ${pair.ratio.toFixed(2)} < ${pair.minimum}`);
    expect(failing).toEqual([]);
  });

  it("catches Mantine's defaults, which fail (so the check above can fail)", () => {
    // Mantine's own: white text on every fill, its input border and focus ring.
    const white = Object.fromEntries(COLORS.map((name) => [`--mantine-color-${name}-contrast`, '#ffffff']));
    const defaults = () => ({
      variables: {},
      light: { ...white, '--sb-control-border': '#ced4da', '--sb-focus-ring': 'var(--mantine-primary-color-filled)' },
      dark: { ...white, '--sb-control-border': '#424242', '--sb-focus-ring': 'var(--mantine-primary-color-filled)' },
    });
    const failing = pairs(scheme, defaults).filter((pair) => pair.ratio < pair.minimum).map((pair) => pair.what);
    expect(failing).toContain('--mantine-color-dimmed on surface 0');
    if (scheme === 'light') {
      expect(failing).toContain('--mantine-color-green-text on surface 0');
      expect(failing).toContain('--mantine-color-yellow-light-color on --mantine-color-yellow-light');
      expect(failing).toContain('--mantine-color-placeholder on surface 0');
    }
  });
});

describe('filled variant', () => {
  it("takes its text colour from the scheme's contrast token, and leaves other variants to Mantine", () => {
    expect(variantColorResolver({ color: 'yellow', theme: merged, variant: 'filled' }).color).toBe('var(--mantine-color-yellow-contrast)');
    expect(variantColorResolver({ color: 'green', theme: merged, variant: 'light' }).color).toBe('var(--mantine-color-green-light-color)');
    // An explicit shade is not a token: autoContrast picks black or white for it.
    expect(variantColorResolver({ color: 'yellow.6', theme: merged, variant: 'filled' }).color).toBe('var(--mantine-color-black)');
  });

  it('uses black text on yellow and white on the primary colour, in both schemes', () => {
    for (const scheme of ['light', 'dark'] as const) {
      const variables = variablesOf(scheme);
      expect(resolve(variables, '--mantine-color-yellow-contrast')).toBe('#000000');
      expect(resolve(variables, '--mantine-primary-color-contrast')).toBe('#ffffff');
    }
  });
});

describe('variables worked out by the build (vite.config.ts)', () => {
  afterEach(() => vi.unstubAllGlobals());
  const fresh = () => mergeMantineTheme(DEFAULT_THEME, theme);

  it('are used as they are for the theme they were worked out for', () => {
    const built = { light: { '--mantine-color-dimmed': '#built' }, dark: {}, variables: {} };
    vi.stubGlobal('__SB_THEME_VARIABLES__', { key: themeVariablesKey(fresh()), variables: built });
    expect(cssVariablesResolver(fresh())).toBe(built);
  });

  it('are not used for a theme with other colours, which is worked out afresh', () => {
    vi.stubGlobal('__SB_THEME_VARIABLES__', { key: themeVariablesKey(fresh()), variables: { light: {}, dark: {}, variables: {} } });
    const other = mergeMantineTheme(DEFAULT_THEME, { ...theme, primaryColor: 'teal' });
    expect(cssVariablesResolver(other).light['--mantine-color-dimmed']).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('equal what the first render would work out', () => {
    const built = cssVariablesResolver(fresh());
    vi.stubGlobal('__SB_THEME_VARIABLES__', { key: themeVariablesKey(fresh()), variables: JSON.parse(JSON.stringify(built)) });
    expect(cssVariablesResolver(fresh())).toEqual(built);
  });
});
