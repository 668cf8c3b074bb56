import {
  createTheme,
  defaultVariantColorsResolver,
  isVirtualColor,
  parseThemeColor,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type MantineTheme,
  type VariantColorsResolver,
} from '@mantine/core';
import { contrastRatio, firstPassing, mix } from './color-contrast';

/** One theme for the whole app (docs/ui.md): indigo primary; green and red are kept for gains and losses. */
const brand: MantineColorsTuple = [
  '#edf2ff', '#dbe4ff', '#bac8ff', '#91a7ff', '#748ffc', '#5c7cfa', '#4c6ef5', '#4263eb', '#3b5bdb', '#364fc7',
];

/**
 * The colours with a meaning (docs/ui.md "Up / down colours"): green for gains, Buy, CALL, success; red for
 * losses, Sell, PUT, failure; grey for neutral; yellow for middling strength and warnings; blue for
 * information (a step under way, nothing on file yet). Screens
 * name these rather than a shade: every theme colour's tokens pass WCAG AA (see below).
 */
export const TONE = { gain: 'green', loss: 'red', success: 'green', failure: 'red', neutral: 'gray', middling: 'yellow', info: 'blue' } as const;

/** WCAG 2.2 AA (1.4.3, 1.4.11): normal text 4.5:1; UI parts (borders, focus rings, icons) 3:1. */
export const TEXT_CONTRAST = 4.5;
export const UI_CONTRAST = 3;

type Scheme = 'light' | 'dark';
const WHITE = '#ffffff';
const BLACK = '#000000';

/**
 * The surfaces text sits on: body, cards, inputs and hovered rows (light: white, gray 0 and 1;
 * dark: dark 7, 6 and 5).
 */
export function surfaces(theme: MantineTheme, scheme: Scheme): string[] {
  return scheme === 'light' ? [theme.white, theme.colors.gray[0], theme.colors.gray[1]] : [theme.colors.dark[7], theme.colors.dark[6], theme.colors.dark[5]];
}

/** A colour's tinted backgrounds (the 'light' variant of badges, alerts and buttons, and its hover). */
function tints(tuple: MantineColorsTuple, scheme: Scheme): { light: string; lightHover: string } {
  // As Mantine draws them: shades 1 and 2 in light; shade 9 darkened by half and by 30% in dark.
  return scheme === 'light' ? { light: tuple[1], lightHover: tuple[2] } : { light: mix(tuple[9], BLACK, 0.5), lightHover: mix(tuple[9], BLACK, 0.3) };
}

/**
 * A filled background and the text on it: the first shade from the scheme's primary shade on that
 * takes white text at 4.5:1 (darkening the last a little if none does); for light hues (yellow,
 * lime) black text on the primary shade instead.
 */
function filledTokens(tuple: MantineColorsTuple, from: number): { filled: string; hover: string; contrast: string } {
  const withHover = (filled: string, contrast: string) => ({ filled, hover: mix(filled, BLACK, 0.1), contrast });
  for (const shade of tuple.slice(from)) if (contrastRatio(shade, WHITE) >= TEXT_CONTRAST) return withHover(shade, WHITE);
  for (let share = 0.02; share <= 0.12; share += 0.02) {
    const darker = mix(tuple[9], BLACK, share);
    if (contrastRatio(darker, WHITE) >= TEXT_CONTRAST) return withHover(darker, WHITE);
  }
  return withHover(tuple[from]!, BLACK);
}

/**
 * The tints of every accent colour (all but `dark`, Mantine's palette of dark-scheme surfaces): a
 * colour's text may sit on another colour's tint (a gain inside an orange calendar event).
 */
export function allTints(theme: MantineTheme, scheme: Scheme): string[] {
  return Object.entries(theme.colors)
    .filter(([name, tuple]) => name !== 'dark' && !isVirtualColor(tuple))
    .map(([, tuple]) => tints(tuple, scheme).light);
}

/** Every colour token of one theme colour in one scheme, as #rrggbb. */
export function colorTokens(theme: MantineTheme, tuple: MantineColorsTuple, scheme: Scheme) {
  const base = surfaces(theme, scheme);
  const { light, lightHover } = tints(tuple, scheme);
  const primaryShade = typeof theme.primaryShade === 'number' ? theme.primaryShade : theme.primaryShade[scheme];
  // Text in the colour: the darker shades on light surfaces, the lighter ones on dark.
  const towards = scheme === 'light' ? BLACK : WHITE;
  const textShades = scheme === 'light' ? [tuple[7], tuple[8], tuple[9]] : [tuple[4], tuple[3], tuple[2], tuple[1], tuple[0]];
  const text = firstPassing(textShades, [...base, light, ...allTints(theme, scheme)], TEXT_CONTRAST, towards);
  const lightColor = firstPassing(scheme === 'light' ? [tuple[9]] : [tuple[0]], [...base, light, lightHover], TEXT_CONTRAST, towards);
  return { text, light, lightHover, lightColor, outline: text, ...filledTokens(tuple, primaryShade) };
}

/**
 * Secondary ("dimmed") text: readable on every surface and on grey tints (the neutral alerts). On a
 * coloured tint, text keeps the normal text colour or the tint's own `-light-color`.
 */
export function dimmedToken(theme: MantineTheme, scheme: Scheme): string {
  const start = scheme === 'light' ? [theme.colors.gray[6]] : [theme.colors.dark[2]];
  return firstPassing(start, [...surfaces(theme, scheme), tints(theme.colors.gray, scheme).light], TEXT_CONTRAST, scheme === 'light' ? BLACK : WHITE);
}

/** The border of inputs, checkboxes and switches: a UI part, 3:1 against the surfaces. */
export function controlBorderToken(theme: MantineTheme, scheme: Scheme): string {
  const start = scheme === 'light' ? [theme.colors.gray[5], theme.colors.gray[6]] : [theme.colors.dark[3], theme.colors.dark[2]];
  return firstPassing(start, surfaces(theme, scheme), UI_CONTRAST, scheme === 'light' ? BLACK : WHITE);
}

/**
 * Mantine's colour variables, replaced by ones that pass WCAG AA in both schemes, for every colour
 * of the theme (so a screen cannot pick a failing one): text in a colour (`c="green"`), the 'light',
 * 'outline', 'subtle' and 'filled' variants (with `-contrast`, the text on 'filled'), and the
 * scheme-wide dimmed, error, placeholder, anchor and control-border colours.
 */
export const cssVariablesResolver: CSSVariablesResolver = (theme) => {
  // Mantine asks on every render of its provider; the answer depends on the theme alone.
  let result = resolvedVariables.get(theme);
  if (!result) {
    const built = typeof __SB_THEME_VARIABLES__ === 'undefined' ? undefined : __SB_THEME_VARIABLES__;
    result = built && built.key === themeVariablesKey(theme) ? built.variables : resolveVariables(theme);
    resolvedVariables.set(theme, result);
  }
  return result;
};

/**
 * The variables of the app's theme as the web build worked them out (vite.config.ts `define`), so
 * the first render does not: some 60 ms of contrast search, four times that on Lighthouse's phone,
 * in the task that paints the first screen (issue 24). Absent in unit tests and the dev server.
 */
declare const __SB_THEME_VARIABLES__: { key: string; variables: ReturnType<CSSVariablesResolver> } | undefined;

/** What resolveVariables reads of a theme: variables worked out for one key hold for any theme with it. */
export const themeVariablesKey = (theme: MantineTheme): string => JSON.stringify([theme.colors, theme.primaryColor, theme.primaryShade, theme.white]);

const resolvedVariables = new WeakMap<MantineTheme, ReturnType<CSSVariablesResolver>>();

function resolveVariables(theme: MantineTheme): ReturnType<CSSVariablesResolver> {
  const result = { variables: {} as Record<string, string>, light: {} as Record<string, string>, dark: {} as Record<string, string> };
  for (const scheme of ['light', 'dark'] as const) {
    const out = result[scheme];
    for (const [name, tuple] of Object.entries(theme.colors)) {
      if (isVirtualColor(tuple)) continue;
      const tokens = colorTokens(theme, tuple, scheme);
      out[`--mantine-color-${name}-text`] = tokens.text;
      out[`--mantine-color-${name}-filled`] = tokens.filled;
      out[`--mantine-color-${name}-filled-hover`] = tokens.hover;
      out[`--mantine-color-${name}-contrast`] = tokens.contrast;
      out[`--mantine-color-${name}-light`] = tokens.light;
      out[`--mantine-color-${name}-light-hover`] = tokens.lightHover;
      out[`--mantine-color-${name}-light-color`] = tokens.lightColor;
      out[`--mantine-color-${name}-outline`] = tokens.outline;
    }
    out['--mantine-primary-color-contrast'] = `var(--mantine-color-${theme.primaryColor}-contrast)`;
    out['--mantine-color-dimmed'] = dimmedToken(theme, scheme);
    out['--mantine-color-placeholder'] = 'var(--mantine-color-dimmed)';
    out['--mantine-color-error'] = 'var(--mantine-color-red-text)';
    out['--mantine-color-success'] = 'var(--mantine-color-teal-text)';
    out['--mantine-color-anchor'] = `var(--mantine-color-${theme.primaryColor}-text)`;
    out['--sb-control-border'] = controlBorderToken(theme, scheme);
    // Focus rings and focused inputs (a UI part: 3:1), in the primary colour's text shade.
    out['--sb-focus-ring'] = `var(--mantine-color-${theme.primaryColor}-text)`;
  }
  return result;
}

/**
 * The 'filled' variant of a theme colour takes its text colour from `--mantine-color-{name}-contrast`
 * (white or black, whichever the scheme's filled shade needs) instead of always white.
 */
export const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled' || !input.color) return colors;
  const parsed = parseThemeColor({ color: input.color, theme: input.theme });
  if (parsed.isThemeColor && parsed.shade === undefined && !isVirtualColor(input.theme.colors[parsed.color]!)) {
    return { ...colors, color: `var(--mantine-color-${parsed.color}-contrast)` };
  }
  return colors;
};

export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 7, dark: 5 },
  colors: { brand },
  // An explicit shade ('green.9') gets black or white text, whichever contrasts more.
  autoContrast: true,
  luminanceThreshold: 0.179,
  variantColorResolver,
  defaultRadius: 'md',
  fontFamily:
    'Inter, ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
});
