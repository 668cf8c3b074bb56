export * from './moving-averages';
export * from './rsi';
export * from './atr';
export * from './ranges';
export * from './levels';
export * from './trend';
