export * from './parse';
export * from './listing';
