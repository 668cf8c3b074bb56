/** The engine-agnostic track record (docs/rules/track-record.md §6): statistics, cohorts, baseline, benchmark. */
export * from './prng';
export * from './stats';
export * from './cohorts';
export * from './baseline';
export * from './benchmark';
export * from './track-record';
