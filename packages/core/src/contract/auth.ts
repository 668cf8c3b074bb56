import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from '../constants';
import { singleLineText } from '../validation/text';

/** An e-mail address as typed: one line, lower-cased. */
export const emailAddress = singleLineText('Email', { required: true, max: 254, examples: ['demo@signalboard.local'] })
  .transform((value) => value.toLowerCase())
  .refine((value) => /^[^\s@]+@[^\s@]+$/.test(value), { message: 'Email must be an e-mail address' });

/** A password as typed: one line, never trimmed (its spaces are part of it). */
const password = (name: string) => singleLineText(name, { required: true, max: PASSWORD_MAX_LENGTH, trim: false });

/** POST api/login */
export const loginRequest = z.object({
  email: emailAddress,
  password: password('Password'),
});
export type LoginRequest = z.input<typeof loginRequest>;

/** The spec's answer: signed in. */
export const loginTokenResponse = z.object({
  access_token: z.string(),
  first_login: z.boolean(),
});
export type LoginTokenResponse = z.infer<typeof loginTokenResponse>;

/**
 * The password was right and the account signs in with two-factor (issue 28): no token yet; the
 * `challenge` goes to POST api/login/two_factor with the code, within five minutes.
 */
export const loginChallengeResponse = z.object({
  two_factor_required: z.literal(true),
  challenge: z.string(),
  first_login: z.boolean(),
});
export type LoginChallengeResponse = z.infer<typeof loginChallengeResponse>;

/** POST api/login answers one of the two; a client tells them apart by `access_token` (isLoginChallenge). */
export const loginResponse = z.union([loginTokenResponse, loginChallengeResponse]);
export type LoginResponse = z.infer<typeof loginResponse>;
export const isLoginChallenge = (answer: LoginResponse): answer is LoginChallengeResponse => !('access_token' in answer);

/**
 * POST api/update-password (token required). Answers `msgBody`. `current_password` is required
 * unless the account is at its first login (a temporary or initial password): issue 28. The new
 * password's rules (length, not a common one) are the server's, answered as a 400 `msg`.
 */
export const updatePasswordRequest = z.object({
  new_password: password('New password'),
  current_password: password('Current password').optional(),
});
export type UpdatePasswordRequest = z.input<typeof updatePasswordRequest>;

/** POST api/forgot-password (no token). Always answers `msgBody` for a well-formed e-mail. */
export const forgotPasswordRequest = z.object({ email: emailAddress });
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequest>;

/** GET api/getemail */
export const getEmailResponse = z.object({
  email: z.string(),
  /** 'admin' or 'member' (issue 28): the web app shows Administration to admins; the server guards it. */
  role: z.enum(['admin', 'member']).optional(),
});
export type GetEmailResponse = z.infer<typeof getEmailResponse>;

/** GET api/health (no token). */
export const healthResponse = z.object({
  status: z.literal('ok'),
  version: z.string(),
  /** Which market source serves data; the web app shows a "Simulated market" badge for `simulated`. */
  market_data: z.enum(['simulated', 'file', 'live']),
  database: z.enum(['embedded', 'external']),
  mail: z.enum(['smtp', 'outbox']),
  /** Where SMS go: `outbox` (DATA_DIR/sms-outbox, the embedded default) or `twilio`. */
  sms: z.enum(['outbox', 'twilio']),
  /** Server time in Unix seconds. */
  time: z.number(),
  /** When this process last finished evaluating the alert rules on fresh quotes (Unix ms), null before the first pass. */
  alerts_evaluated_at: z.number().nullable().optional(),
  /** How many symbols have imported daily prices (docs/data-in-and-out.md); the shell then shows an "Imported prices" badge. Absent when unknown. */
  imported_symbols: z.number().int().nonnegative().optional(),
});
export type HealthResponse = z.infer<typeof healthResponse>;

/**
 * One dependency's state in GET api/ready: `up`, `down` (failed or timed out; `msg` says why),
 * `not_configured` (this installation does not use it, e.g. Redis without REDIS_URL) or `degraded`
 * (usable, with a problem `msg` names). `latency_ms`: how long the check took. Other fields are the
 * check's own details (a source name, job counts per state).
 */
export const readinessCheckResult = z.looseObject({
  state: z.enum(['up', 'down', 'not_configured', 'degraded']),
  latency_ms: z.number(),
  /** Whether a `down` state makes the process not ready (the database; Redis when configured). */
  required: z.boolean(),
  msg: z.string().optional(),
});
export type ReadinessCheckResult = z.infer<typeof readinessCheckResult>;

/**
 * GET api/ready with `Authorization: Bearer <METRICS_TOKEN>`: readiness, each dependency named with
 * its state and details (latency, kind, errors, job counts); 503 with this body when not ready.
 */
export const readyResponse = z.object({
  status: z.enum(['ready', 'not_ready']),
  /** Dependency name (database, redis, queues, market_data, mail, sms) → its state and details. */
  checks: z.record(z.string(), readinessCheckResult),
});
export type ReadyResponse = z.infer<typeof readyResponse>;

/**
 * GET api/ready without that token (anyone): readiness and each dependency's state only, nothing
 * that names a host, an error or a queue; 503 with this body when not ready.
 */
export const readyPublicResponse = z.strictObject({
  status: readyResponse.shape.status,
  checks: z.record(z.string(), z.strictObject({ state: readinessCheckResult.shape.state })),
});
export type ReadyPublicResponse = z.infer<typeof readyPublicResponse>;

/** One sign-in session of the signed-in user (GET api/sessions; issue 28). Times are ISO 8601 UTC. */
export const sessionSummary = z.object({
  id: z.string(),
  /** What signed in, read from its User-Agent: "Chrome on Windows", "Safari on iPhone", "curl"… */
  device: z.string(),
  user_agent: z.string(),
  /** The address it signed in from. */
  address: z.string(),
  created_at: z.string(),
  last_seen_at: z.string(),
  expires_at: z.string(),
  /** The session of the token that asked. */
  current: z.boolean(),
});
export type SessionSummary = z.infer<typeof sessionSummary>;

export const sessionsResponse = z.object({ sessions: z.array(sessionSummary) });
export type SessionsResponse = z.infer<typeof sessionsResponse>;

/** POST api/end_session: ends one of the signed-in user's sessions (the current one too: that is signing out). */
export const endSessionRequest = z.object({
  id: singleLineText('Session', { required: true, max: 64 }),
});
export type EndSessionRequest = z.input<typeof endSessionRequest>;

/** GET api/sign_in_options (no token): what the login screen offers besides the password form. */
export const signInOptionsResponse = z.object({
  /** SIGNUP=open: anyone may ask for an account from the login screen ("Create an account"). */
  sign_up: z.boolean(),
  /** OIDC_ISSUER…: "Sign in with <label>" (docs/accounts.md "Single sign-on"); null without a provider. */
  single_sign_on: z.object({ label: z.string() }).nullable(),
  /** OIDC_ONLY: the password form is for admins only (`admins`: shown behind "Administrator sign-in"). */
  password_form: z.enum(['everyone', 'admins']),
});
export type SignInOptionsResponse = z.infer<typeof signInOptionsResponse>;

/** The secret of an invitation's link (the part after `#` in `/invite#…`): 43 base64url characters. */
const invitationToken = singleLineText('Invitation', { required: true, max: 100 });

/** POST api/invitation (no token): what an invitation link is for, before its invitee chooses a password. */
export const invitationRequest = z.object({ token: invitationToken });
export type InvitationRequest = z.input<typeof invitationRequest>;
export const invitationResponse = z.object({
  email: z.string(),
  /** When the link stops working (ISO 8601 UTC). */
  expires_at: z.string(),
});
export type InvitationResponse = z.infer<typeof invitationResponse>;

/** POST api/accept_invitation (no token): creates the account with the password chosen, signs it in. Answers `loginResponse`. */
export const acceptInvitationRequest = z.object({ token: invitationToken, password: password('Password') });
export type AcceptInvitationRequest = z.input<typeof acceptInvitationRequest>;

/** POST api/sign_up (no token; SIGNUP=open): e-mails a link to create the account. Always answers `msgBody` alike. */
export const signUpRequest = z.object({ email: emailAddress });
export type SignUpRequest = z.input<typeof signUpRequest>;
