/**
 * WCAG 2.x colour contrast (https://www.w3.org/TR/WCAG22/#dfn-contrast-ratio), for the theme's
 * tokens: relative luminance, contrast ratio, and mixing towards black or white until a colour
 * reaches a ratio. Colours are #rrggbb (or #rgb) strings.
 */

export type Rgb = readonly [number, number, number];

const parsed = new Map<string, Rgb>();

export function parseHex(color: string): Rgb {
  let known = parsed.get(color);
  if (known === undefined) {
    known = parseHexOnce(color);
    parsed.set(color, known);
  }
  return known;
}

function parseHexOnce(color: string): Rgb {
  const match = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!match) throw new Error(`not a #rgb or #rrggbb colour: ${color}`);
  const hex = match[1]!.length === 3 ? [...match[1]!].map((digit) => digit + digit).join('') : match[1]!;
  return [0, 2, 4].map((start) => parseInt(hex.slice(start, start + 2), 16)) as unknown as Rgb;
}

export function toHex([r, g, b]: Rgb): string {
  return `#${[r, g, b].map((channel) => Math.round(Math.min(255, Math.max(0, channel))).toString(16).padStart(2, '0')).join('')}`;
}

/**
 * Colours and luminances of the colour strings seen so far (both maps). The theme's tokens
 * (theme.ts) compare a few hundred candidate colours against the same twenty-odd backgrounds tens of
 * thousands of times while the app starts: working each string out once keeps that off the first
 * render's critical path.
 */
const luminanceOf = new Map<string, number>();

/** WCAG relative luminance, 0 (black) to 1 (white). */
export function relativeLuminance(color: string | Rgb): number {
  if (typeof color !== 'string') return luminance(color);
  let known = luminanceOf.get(color);
  if (known === undefined) {
    known = luminance(parseHex(color));
    luminanceOf.set(color, known);
  }
  return known;
}

function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((channel) => {
    const value = channel / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  }) as unknown as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio of two colours, 1 to 21, whichever is lighter. */
export function contrastRatio(a: string | Rgb, b: string | Rgb): number {
  const [light, dark] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `color` mixed with `other`: share 0 is `color`, 1 is `other` (as CSS color-mix in sRGB). */
export function mix(color: string, other: string, share: number): string {
  const a = parseHex(color);
  const b = parseHex(other);
  return toHex(a.map((channel, index) => channel + (b[index]! - channel) * share) as unknown as Rgb);
}

/** A colour composited over an opaque background, for colours with an alpha ('rgba' layers). */
export function over(color: Rgb, alpha: number, background: string): string {
  const base = parseHex(background);
  return toHex(color.map((channel, index) => channel * alpha + base[index]! * (1 - alpha)) as unknown as Rgb);
}

/** The lowest contrast `color` has against any of `backgrounds`. */
export const worstContrast = (color: string, backgrounds: readonly string[]): number =>
  Math.min(...backgrounds.map((background) => contrastRatio(color, background)));

/**
 * The first of `candidates` with at least `ratio` against every background; failing all, the last
 * candidate mixed step by step towards `towards` (black to darken, white to lighten) until it has.
 */
export function firstPassing(candidates: readonly string[], backgrounds: readonly string[], ratio: number, towards: '#000000' | '#ffffff'): string {
  for (const candidate of candidates) if (worstContrast(candidate, backgrounds) >= ratio) return candidate;
  const last = candidates.at(-1)!;
  for (let share = 0.02; share <= 1; share += 0.02) {
    const mixed = mix(last, towards, share);
    if (worstContrast(mixed, backgrounds) >= ratio) return mixed;
  }
  return towards;
}
