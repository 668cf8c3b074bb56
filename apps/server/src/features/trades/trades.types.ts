/**
 * The types the trade feature's modules share (kept apart so that none of them imports another only
 * for a type, which made the runner, the extras and crypto's extras an import cycle).
 */
import type { EngineDefinition, EngineExtras, EngineId, SessionExtras, SessionInput } from '@signalboard/core';

/**
 * An engine as the platform runs it, whatever its parameters, state and row; its sessions are handed
 * any engine's extras as SessionExtras (each engine's own extras type is a part of it).
 */
export type AnyEngine = EngineDefinition<unknown, unknown, Record<string, unknown>, SessionExtras>;

/** How a session's extras are asked for: the session's input; `pace` is called between symbols (trades.runner.ts RunnerOptions.pace). */
type ExtrasOfSession<X> = (input: SessionInput<unknown, unknown>, options: { live: boolean; pace?: () => Promise<void> }) => Promise<X>;

/**
 * Per session, the extras of engine `Id`'s run (created once per replay or pass), of that engine's
 * own extras type (EngineExtras: engines/<name>/extras.ts in packages/core): what its adapter builds
 * (EngineAdapter<Id>.extras), so an adapter cannot hand its engine a field the engine does not read.
 */
export type ExtrasFor<Id extends EngineId> = ExtrasOfSession<EngineExtras[Id]>;

/**
 * The same for code that serves every engine (createExtrasFor, the runner): any engine's extras, read
 * as SessionExtras (every engine's fields, all optional; each engine's ExtrasFor is one).
 */
export type AnyExtrasFor = ExtrasOfSession<SessionExtras>;
