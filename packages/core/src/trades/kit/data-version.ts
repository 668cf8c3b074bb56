/**
 * A rule version run on imported prices (issue 29; docs/rules/conventions.md §0.4 "Versions"):
 * `<engine>@<semver>+data.<data version>`, semver build metadata naming the imported bars the
 * engine read (the server's apps/server/src/features/trades/trades.versions.ts). Its ideas, replay
 * and statistics are kept apart from the same rules on other data.
 */
const DATA_MARK = '+data.';

/** The rule version an engine runs as on data version `data` ('' : its own). */
export const versionOnData = (ruleVersion: string, data: string): string => (data === '' ? ruleVersion : `${ruleVersion}${DATA_MARK}${data}`);

/** The data version a rule version names ('' when it names none: the source's data only). */
export function dataVersionIn(ruleVersion: string): string {
  const at = ruleVersion.indexOf(DATA_MARK);
  return at < 0 ? '' : ruleVersion.slice(at + DATA_MARK.length);
}

/** The rules' own version, without the data it ran on. */
export function rulesOf(ruleVersion: string): string {
  const at = ruleVersion.indexOf(DATA_MARK);
  return at < 0 ? ruleVersion : ruleVersion.slice(0, at);
}

/** How the screens name a rule version: `swing@1.0.0`, or `swing@1.0.0 on imported prices (data 1a2b3c4d)`. */
export function ruleVersionLabel(ruleVersion: string): string {
  const data = dataVersionIn(ruleVersion);
  return data === '' ? ruleVersion : `${rulesOf(ruleVersion)} on imported prices (data ${data})`;
}
