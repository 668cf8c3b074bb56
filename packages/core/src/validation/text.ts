/**
 * Input hygiene for every text a call accepts, in one place. Each text field of a request schema
 * (packages/core/src/contract) is built with `singleLineText` or `multiLineText`:
 *
 * - a control character (U+0000–U+001F, U+007F) answers 400 with a msg naming the field, e.g.
 *   "Email must not contain line breaks or other control characters";
 * - multi-line fields (the support body, the news-analysis texts) accept tab, line feed and
 *   carriage return;
 * - single-line fields are trimmed first (so a pasted value's trailing tab or line break goes; secrets,
 *   such as passwords, opt out with `trim: false` and keep every character they were sent with).
 *
 * `uncheckedTextFields` walks a schema and names every string inside it that did not come from these
 * builders; the contract's tests (core and server) run it over every request schema, so a field that
 * skips the check fails the suite instead of reaching the database.
 */
import { z } from 'zod';

/** Whether a field may span several lines (tab, LF and CR allowed) or is one line (trimmed). */
export type TextLines = 'single' | 'multi';

/**
 * The control characters each kind refuses: U+0000–U+001F and U+007F; multi-line text keeps tab
 * (U+0009), line feed (U+000A) and carriage return (U+000D). Matching them is the point here.
 */
/* eslint-disable no-control-regex */
const REFUSED: Record<TextLines, RegExp> = {
  single: /[\u0000-\u001F\u007F]/g,
  multi: /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g,
};
/* eslint-enable no-control-regex */

/** Whether `text` holds a control character a field of this kind refuses. */
export function hasControlCharacter(text: string, lines: TextLines): boolean {
  // search() ignores the pattern's g flag and lastIndex.
  return text.search(REFUSED[lines]) !== -1;
}

/** The 400 `msg` for a control character in the field `name`. */
export function controlCharacterMessage(name: string, lines: TextLines): string {
  return lines === 'single'
    ? `${name} must not contain line breaks or other control characters`
    : `${name} must not contain control characters other than tabs and line breaks`;
}

/**
 * Removes the control characters a field of this kind refuses (each becomes a space), for text that
 * comes from elsewhere (a provider's news) and is sent back to us by the web app.
 */
export function stripControlCharacters(text: string, lines: TextLines): string {
  return text.replace(REFUSED[lines], ' ');
}

export interface TextOptions {
  /**
   * The msg for a value that is not a string. Default: '<name> is required' when it is absent
   * (undefined or null), '<name> must be text' otherwise.
   */
  typeError?: string | ((input: unknown) => string);
  /** The longest value accepted, counted as sent (before trimming). */
  max?: number;
  /** The msg for a longer value; default '<name> must be at most <max> characters'. */
  maxMessage?: string;
  /** Refuse an empty or blank value with this msg (true: '<name> is required'). Default: accepted. */
  required?: boolean | string;
  /** Single-line fields are trimmed unless this is false (a password keeps its spaces). */
  trim?: boolean;
  /** Example values, shown in the OpenAPI document (and used by the fuzz test as valid input). */
  examples?: string[];
}

/** The control-character checks `text` adds; a string holding one of them came from a builder. */
const controlChecks = new WeakSet<object>();

function text(name: string, lines: TextLines, options: TextOptions) {
  const typeError = options.typeError ?? ((input: unknown) => (input === undefined || input === null ? `${name} is required` : `${name} must be text`));
  let base = z.string({ error: (issue) => (typeof typeError === 'string' ? typeError : typeError(issue.input)) });
  if (options.max !== undefined) base = base.max(options.max, options.maxMessage ?? `${name} must be at most ${options.max} characters`);
  // Surrounding whitespace (a pasted value's tab or line break included) goes before the check.
  if (lines === 'single' && options.trim !== false) base = base.trim();
  // A check, not a transform: the result stays a string schema (so .max, .regex, .trim… still
  // apply), and inside a union (a number or its text) its msg is the answer, not "no option matched".
  let checked = base.refine((value) => !hasControlCharacter(value, lines), { message: controlCharacterMessage(name, lines) });
  controlChecks.add(checked._zod.def.checks!.at(-1)!);
  if (options.required) {
    const requiredMessage = typeof options.required === 'string' ? options.required : `${name} is required`;
    checked = checked.refine((value) => value.trim().length > 0, { message: requiredMessage });
  }
  return options.examples ? checked.meta({ examples: options.examples }) : checked;
}

/**
 * A one-line text field named `name` (as its messages call it: 'Email', 'Symbol', 'from'):
 * control characters answer 400, the value is trimmed.
 */
export function singleLineText(name: string, options: TextOptions = {}) {
  return text(name, 'single', options);
}

/** A text field that may span lines: tab, LF and CR are kept, other control characters answer 400. */
export function multiLineText(name: string, options: TextOptions = {}) {
  return text(name, 'multi', options);
}

type AnySchema = z.core.$ZodType;
const isSchema = (value: unknown): value is AnySchema => typeof value === 'object' && value !== null && '_zod' in value;

/**
 * The paths of the strings inside `schema` that no text builder made (e.g. `stocks[].description`),
 * so skip the control-character check. Enums and literals are not free text and pass.
 */
export function uncheckedTextFields(schema: AnySchema): string[] {
  const found: string[] = [];
  const seen = new Set<AnySchema>();
  const walk = (node: AnySchema, path: string) => {
    if (seen.has(node)) return;
    seen.add(node);
    const def = node._zod.def as unknown as Record<string, unknown> & { type: string };
    if (def.type === 'string' && !(def.checks as object[] | undefined)?.some((check) => controlChecks.has(check))) found.push(path || '(root)');
    if (def.type === 'object') {
      for (const [key, child] of Object.entries(def.shape as Record<string, AnySchema>)) walk(child, path ? `${path}.${key}` : key);
    }
    if (def.type === 'lazy') walk((def.getter as () => AnySchema)(), path);
    for (const [key, value] of Object.entries(def)) {
      if (key === 'shape' || key === 'checks') continue;
      if (isSchema(value)) walk(value, key === 'element' ? `${path}[]` : path);
      else if (Array.isArray(value)) for (const item of value) if (isSchema(item)) walk(item, path);
    }
  };
  walk(schema, '');
  return found;
}
