/**
 * The types the trade feature's modules share (kept apart so that none of them imports another only
 * for a type, which made the runner, the extras and crypto's extras an import cycle).
 */
import type { EngineDefinition, SessionExtras, SessionInput } from '@signalboard/core';

/** An engine as the platform runs it, whatever its parameters, state and row. */
export type AnyEngine = EngineDefinition<unknown, unknown, Record<string, unknown>>;

/**
 * Per session, the extras of one engine's run (created once per replay or pass). `pace`: called
 * between symbols (trades.runner.ts RunnerOptions.pace).
 */
export type ExtrasFor = (input: SessionInput<unknown, unknown>, options: { live: boolean; pace?: () => Promise<void> }) => Promise<SessionExtras>;
