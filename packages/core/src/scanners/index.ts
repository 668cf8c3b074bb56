export * from './drop-scanner';
export * from './option-signals';
