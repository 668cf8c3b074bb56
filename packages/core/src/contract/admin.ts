/** The Administration calls (issue 28; docs/accounts.md): admins only, guarded on the server. */
import { z } from 'zod';
import { emailAddress } from './auth';

export const USER_ROLE_VALUES = ['admin', 'member'] as const;
export type UserRoleValue = (typeof USER_ROLE_VALUES)[number];

/** One account as an admin sees it (GET api/admin/users). Times are ISO 8601 UTC or null. */
export const adminUser = z.object({
  id: z.number(),
  email: z.string(),
  role: z.enum(USER_ROLE_VALUES),
  active: z.boolean(),
  /** Still on a temporary or initial password. */
  first_login: z.boolean(),
  created_at: z.string(),
  /** The newest sign-in (session), or null when the account never signed in. */
  last_sign_in_at: z.string().nullable(),
  /** Sessions still in use. */
  sessions: z.number(),
  two_factor: z.boolean(),
  /** How the account signs in: 'password' (and later 'oidc'). */
  sign_in_methods: z.array(z.string()),
  /** The account that asked. */
  you: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUser>;
export const adminUsersResponse = z.object({ users: z.array(adminUser) });
export type AdminUsersResponse = z.infer<typeof adminUsersResponse>;

const userId = z.number({ error: 'User is required' }).int('User must be a whole number').positive('User must be a whole number');

export const adminUserRequest = z.object({ user_id: userId });
export type AdminUserRequest = z.input<typeof adminUserRequest>;

export const adminSetRoleRequest = z.object({ user_id: userId, role: z.enum(USER_ROLE_VALUES, { error: 'Role must be admin or member' }) });
export type AdminSetRoleRequest = z.input<typeof adminSetRoleRequest>;

export const adminSetActiveRequest = z.object({ user_id: userId, active: z.boolean({ error: 'Active must be true or false' }) });
export type AdminSetActiveRequest = z.input<typeof adminSetActiveRequest>;

/** One admin action in the audit log (GET api/admin/audit), newest first. */
export const auditEntry = z.object({
  id: z.number(),
  at: z.string(),
  /** Who acted: an admin's e-mail, 'command line' or 'ADMIN_EMAILS'. */
  actor: z.string(),
  action: z.string(),
  /** The account acted on. */
  target: z.string(),
  detail: z.record(z.string(), z.unknown()),
  /** Where the admin acted from ('' for the command line). */
  address: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntry>;

export const auditQuery = z.object({
  /** Entries older than this id (the last one of the previous page). */
  before: z.coerce.number({ error: 'Before must be a number' }).int().positive().optional(),
  limit: z.coerce.number({ error: 'Limit must be a number' }).int().min(1, 'Limit must be between 1 and 200').max(200, 'Limit must be between 1 and 200').optional(),
});
export type AuditQuery = z.input<typeof auditQuery>;
export const auditResponse = z.object({ entries: z.array(auditEntry), more: z.boolean() });
export type AuditResponse = z.infer<typeof auditResponse>;

/** An invitation not yet accepted or revoked (GET api/admin/invitations); `expired` ones can be resent. */
export const adminInvitation = z.object({
  id: z.number(),
  email: z.string(),
  role: z.enum(USER_ROLE_VALUES),
  /** 'admin': an admin invited; 'sign-up': the visitor asked (SIGNUP=open). */
  source: z.enum(['admin', 'sign-up']),
  /** The admin who invited (null for a sign-up, or an admin account since removed). */
  invited_by: z.string().nullable(),
  created_at: z.string(),
  /** When the current link was sent (created or last resent). */
  sent_at: z.string(),
  expires_at: z.string(),
  expired: z.boolean(),
});
export type AdminInvitation = z.infer<typeof adminInvitation>;
export const adminInvitationsResponse = z.object({ invitations: z.array(adminInvitation) });
export type AdminInvitationsResponse = z.infer<typeof adminInvitationsResponse>;

export const adminInviteRequest = z.object({
  email: emailAddress,
  role: z.enum(USER_ROLE_VALUES, { error: 'Role must be admin or member' }).optional(),
});
export type AdminInviteRequest = z.input<typeof adminInviteRequest>;

export const adminInvitationRequest = z.object({
  invitation_id: z.number({ error: 'Invitation is required' }).int('Invitation must be a whole number').positive('Invitation must be a whole number'),
});
export type AdminInvitationRequest = z.input<typeof adminInvitationRequest>;

/** One dependency as the readiness checks found it (GET api/ready's full detail, for admins). */
export const installationCheck = z.object({
  name: z.string(),
  state: z.enum(['up', 'down', 'not_configured', 'degraded']),
  /** Whether its being down makes the process not ready. */
  required: z.boolean(),
  latency_ms: z.number(),
  msg: z.string().optional(),
  /** The check's own details: a kind, a source, a prefix, job counts per queue and state… */
  details: z.record(z.string(), z.unknown()),
});
export type InstallationCheck = z.infer<typeof installationCheck>;

/** A scheduled job's newest run and its newest success (job_runs): how fresh what it fills is. */
export const installationJob = z.object({
  job: z.string(),
  /** The newest run's state: 'running', 'done' or 'failed'. */
  status: z.string(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** The newest run's error, when it failed. */
  error: z.string().nullable(),
  /** When a run of it last succeeded (null: never). */
  last_success_at: z.string().nullable(),
});
export type InstallationJob = z.infer<typeof installationJob>;

/** GET api/admin/installation: the installation's state on one card (issue 28). Times are ISO 8601 UTC. */
export const adminInstallationResponse = z.object({
  version: z.string(),
  /** When the answer was made (this API process's clock). */
  time: z.string(),
  status: z.enum(['ready', 'not_ready']),
  checks: z.array(installationCheck),
  market_data: z.object({
    source: z.enum(['simulated', 'file', 'live']),
    /** The live providers and whether each is set up (keys given, or enabled). */
    providers: z.array(z.object({ name: z.string(), configured: z.boolean() })),
  }),
  /** The news analyst: 'local' or an OpenAI-compatible server's model. */
  analyst: z.string(),
  mail: z.enum(['smtp', 'outbox']),
  sms: z.enum(['outbox', 'twilio']),
  /** Alert channels beyond SMS and e-mail that need the installation's set-up. */
  channels: z.object({ telegram: z.boolean(), push: z.boolean(), webhooks: z.boolean() }),
  database: z.enum(['embedded', 'external']),
  redis: z.boolean(),
  sign_up: z.enum(['open', 'closed']),
  /** When the alert rules were last evaluated on fresh quotes (null before the first pass). */
  alerts_evaluated_at: z.string().nullable(),
  jobs: z.array(installationJob),
});
export type AdminInstallationResponse = z.infer<typeof adminInstallationResponse>;
