export * from './moving-averages';
export * from './rsi';
export * from './atr';
export * from './ranges';
export * from './metrics';
export * from './volume-profile';
export * from './support-resistance';
export * from './trend';
