export * from './types';
export * from './format';
export * from './evaluate';
export * from './tick';
export * from './messages';
export * from './scan-membership';
