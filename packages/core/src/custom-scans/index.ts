export * from './ast';
export * from './fields';
export * from './formula';
export * from './field-series';
export * from './evaluate';
export * from './templates';
export * from './backtest';
export * from './chart-levels';
