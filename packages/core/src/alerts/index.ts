export * from './types';
export * from './format';
export * from './evaluate';
export * from './tick';
export * from './messages';
