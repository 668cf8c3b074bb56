/**
 * The engines as they run on the installation's data (issue 29; docs/rules/conventions.md §0.4
 * "Versions", docs/data-in-and-out.md "Replays of new data"). An engine whose universe holds symbols
 * with imported daily prices runs as `<engine>@<semver>+data.<data version>` (semver build metadata:
 * the same rules, built on other data; dataVersionOf: the imported bars it reads). A new import of one
 * of its symbols is a new version: its history is replayed for the new data (with its progress, as a
 * new rule version's is), its ideas stored apart (`…@1.0.0+data.1a2b3c4d`) and its statistics grouped
 * apart. Without imported symbols in its universe an engine keeps its rule version as it is.
 */
import { dataVersionIn, rulesOf, versionOnData, type EngineId, type UniverseMember } from '@signalboard/core';
import type { CachedMarket } from '../../providers/market/cached-market';
import { dataVersionOf } from '../../providers/market/imported/data-version';
import type { AnyEngine } from './trades.types';

export interface EngineVersions {
  /** The engines as registered (their own rule versions), by id. */
  readonly registered: ReadonlyMap<EngineId, AnyEngine>;
  /** The engine as it runs now (its rule version on the data its universe has now), or undefined when it does not run here. */
  current(id: EngineId): Promise<AnyEngine | undefined>;
  /** Every engine as it runs now, in the registered order. */
  all(): Promise<AnyEngine[]>;
  /** The engine (as it runs now) whose rule version is `ruleVersion`; undefined when none is (another release's, or data that has changed since). */
  byVersion(ruleVersion: string): Promise<AnyEngine | undefined>;
}

export function createEngineVersions(deps: {
  engines: readonly AnyEngine[];
  market: Pick<CachedMarket, 'importedDigests'>;
  universeOf: (survivorshipBiased: boolean, engine: EngineId) => Promise<UniverseMember[]>;
}): EngineVersions {
  const registered = new Map<EngineId, AnyEngine>(deps.engines.map((engine) => [engine.id, engine]));
  /** One object per engine and data version: the same version is the same engine (its ruleVersion a plain field). */
  const made = new Map<string, AnyEngine>();
  const onData = (engine: AnyEngine, data: string): AnyEngine => {
    if (data === '') return engine;
    const ruleVersion = versionOnData(engine.ruleVersion, data);
    let versioned = made.get(ruleVersion);
    if (!versioned) {
      versioned = { ...engine, ruleVersion };
      made.set(ruleVersion, versioned);
    }
    return versioned;
  };

  const current = async (id: EngineId): Promise<AnyEngine | undefined> => {
    const engine = registered.get(id);
    if (!engine) return undefined;
    // Without imported prices (most installations) the universe is not even read.
    const digests = await deps.market.importedDigests?.();
    if (!digests || digests.size === 0) return engine;
    const universe = await deps.universeOf(true, id);
    return onData(engine, dataVersionOf(universe.map((member) => member.symbol), digests));
  };
  const all = async () => Promise.all([...registered.keys()].map(async (id) => (await current(id))!));

  return {
    registered,
    current,
    all,
    async byVersion(ruleVersion) {
      return (await all()).find((engine) => engine.ruleVersion === ruleVersion);
    },
  };
}

/**
 * Null when the bars a run read (`digests`: loadSeries' of its universe) are the data its version
 * names; else why the run must not store anything: an import landed between the version's choice and
 * the read, and the next tick runs the new data's version.
 */
export function dataChangedSince(engine: AnyEngine, universe: readonly UniverseMember[], digests: ReadonlyMap<string, string>): string | null {
  const read = dataVersionOf(
    universe.map((member) => member.symbol),
    digests,
  );
  const named = dataVersionIn(engine.ruleVersion);
  return read === named ? null : `the imported prices changed while ${engine.ruleVersion} read them (now ${versionOnData(rulesOf(engine.ruleVersion), read)}); the next tick runs that version`;
}


/**
 * A stored row's JSON as sent: with `"Imported":true` when its figures come from an imported price
 * file (its symbol is imported and its rule version ran on imported prices; ideaStamps.Imported).
 * The stored text is not parsed: the stamp goes before its closing brace.
 */
export function withImportedStamp(json: string, row: { symbol: string; ruleVersion: string }, imported: ReadonlySet<string>): string {
  if (!imported.has(row.symbol) || dataVersionIn(row.ruleVersion) === '' || !json.endsWith('}')) return json;
  return json.length > 2 ? `${json.slice(0, -1)},"Imported":true}` : '{"Imported":true}';
}
