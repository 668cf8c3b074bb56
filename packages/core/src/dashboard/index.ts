export * from './dashboard-rules';
export * from './local-summaries';
