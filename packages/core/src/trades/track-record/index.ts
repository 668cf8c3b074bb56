/** The engine-agnostic track record (strategies.md §6): statistics, cohorts, baseline, benchmark. */
export * from './sha256';
export * from './prng';
export * from './stats';
export * from './cohorts';
export * from './baseline';
export * from './benchmark';
export * from './track-record';
