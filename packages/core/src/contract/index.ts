export * from './common';
export * from './auth';
export * from './favorites';
export * from './support';
export * from './market';
export * from './scans';
export * from './news-analysis';
export * from './dashboard';
