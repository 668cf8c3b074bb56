/**
 * The database schema, one file per feature in db/tables/ (drizzle-kit reads this module: every table
 * exported here is in the migrations). Import tables from here.
 */
export * from './tables/users';
export * from './tables/outbox';
export * from './tables/jobs';
export * from './tables/dashboard';
export * from './tables/trades';
export * from './tables/saved-alerts';
export * from './tables/phone';
export * from './tables/alerts';
export * from './tables/alert-channels';
export * from './tables/custom-scans';
export * from './tables/custom-scan-alerts';
export * from './tables/custom-scan-backtests';
export * from './tables/sessions';
export * from './tables/audit';
export * from './tables/invitations';
export * from './tables/two-factor';
export * from './tables/oidc';
export * from './tables/imported-prices';
