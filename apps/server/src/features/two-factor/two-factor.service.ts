/**
 * Two-factor sign-in (issue 28; docs/accounts.md "Two-factor sign-in"): turning it on and off, the
 * recovery codes, the login challenge between the password and the code, and the installation's
 * "required for everyone". HTTP-free: the routes translate.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { generateTotpSecret, groupedKey, otpauthUri, verifyTotp } from '../../lib/totp';
import type { SessionsRepo } from '../auth/sessions.repo';
import { generateRecoveryCodes, normalizeRecoveryCode } from './recovery-codes';
import type { TwoFactorRepo } from './two-factor.repo';

export const CHALLENGE_TTL_MS = 5 * 60 * 1000;
/** Wrong codes a challenge takes; the last locks it. */
export const CHALLENGE_MAX_FAILURES = 5;

export const WRONG_CODE_MSG = "That code is not right. Type the newest code your authenticator app shows (check that your phone's time is set automatically), or a recovery code.";
export const NOT_WAITING_MSG = 'No new key is waiting for a code: start again with Turn on.';
export const ALREADY_ON_MSG = 'Two-factor sign-in is already on.';
export const NOT_ON_MSG = 'Two-factor sign-in is off.';
export const REQUIRED_MSG = 'Your installation requires two-factor sign-in: it cannot be turned off.';
export const CHALLENGE_GONE_MSG = 'This sign-in has expired or was completed already: sign in again with your password.';
export const TOO_MANY_CODES_MSG = 'Too many wrong codes: sign in again.';
export const triesLeftMsg = (left: number) => `That code is not right: ${left} ${left === 1 ? 'try' : 'tries'} left.`;

const RECOVERY_PURPOSE = 'two-factor recovery code';
const hashChallenge = (challenge: string) => createHash('sha256').update(challenge).digest('hex');

export interface TwoFactorServiceDeps {
  repo: TwoFactorRepo;
  sessions: Pick<SessionsRepo, 'liftTwoFactor' | 'endAll'>;
  box: SecretBox;
  clock: Clock;
}

/** What a correct password leads to: the code step, setting two-factor up first, or nothing more. */
export type LoginStep = 'challenge' | 'setup' | 'none';

export function createTwoFactorService({ repo, sessions, box, clock }: TwoFactorServiceDeps) {
  const now = () => new Date(clock.nowMs());
  const recoveryHash = (normalized: string) => box.digest(RECOVERY_PURPOSE, normalized);

  /** New recovery codes for the user: the earlier ones stop working; answers them in clear, this once. */
  async function newRecoveryCodes(userId: number): Promise<string[]> {
    const codes = generateRecoveryCodes();
    await repo.replaceRecoveryCodes(userId, codes.map((code) => recoveryHash(normalizeRecoveryCode(code)!)), now());
    return codes;
  }

  /**
   * Whether `code` proves the user holds their second factor, using it up: a 6-digit code of a step
   * within ±1 not used before (the step is recorded), or an unused recovery code (marked used).
   */
  async function useCode(userId: number, code: string): Promise<'totp' | 'recovery' | undefined> {
    const row = await repo.find(userId);
    if (!row?.confirmedAt) return undefined;
    const digits = code.replace(/\s/g, '');
    if (/^\d{6}$/.test(digits)) {
      const step = verifyTotp(Buffer.from(box.open(row.secret), 'base64'), digits, clock.nowMs(), row.lastUsedStep);
      return step !== null && (await repo.useStep(userId, step)) ? 'totp' : undefined;
    }
    const normalized = normalizeRecoveryCode(code);
    return normalized && (await repo.useRecoveryCode(userId, recoveryHash(normalized), now())) ? 'recovery' : undefined;
  }

  /** The open challenge's account (its e-mail counts against the login limits), or 401 with why there is none. */
  async function openChallenge(challenge: string) {
    const row = await repo.findChallenge(hashChallenge(challenge));
    if (!row || row.usedAt || row.expiresAt.getTime() <= clock.nowMs()) throw new HttpError(401, CHALLENGE_GONE_MSG);
    if (row.lockedAt) throw new HttpError(401, TOO_MANY_CODES_MSG);
    return row;
  }

  return {
    useCode,
    openChallenge,

    async state(userId: number) {
      const [row, required] = await Promise.all([repo.find(userId), repo.twoFactorRequired()]);
      const enabled = Boolean(row?.confirmedAt);
      return {
        enabled,
        since: enabled ? row!.confirmedAt!.toISOString() : null,
        recovery_codes_left: enabled ? await repo.recoveryCodesLeft(userId) : 0,
        required,
      };
    },

    /** A new key waiting for its first code (replacing one that was waiting): what the app scans or the user types. */
    async setup(userId: number, email: string) {
      const secret = generateTotpSecret();
      if (!(await repo.saveUnconfirmed(userId, box.seal(secret.toString('base64')), now()))) throw new HttpError(409, ALREADY_ON_MSG);
      return { manual_key: groupedKey(secret), otpauth_uri: otpauthUri(secret, email) };
    },

    /** Turns two-factor on with a code of the waiting key; lifts the user's sessions that waited for it; answers the recovery codes. */
    async enable(userId: number, code: string): Promise<string[]> {
      const row = await repo.find(userId);
      if (row?.confirmedAt) throw new HttpError(409, ALREADY_ON_MSG);
      if (!row) throw new HttpError(400, NOT_WAITING_MSG);
      const digits = code.replace(/\s/g, '');
      const step = verifyTotp(Buffer.from(box.open(row.secret), 'base64'), digits, clock.nowMs(), null);
      if (step === null) throw new HttpError(400, WRONG_CODE_MSG);
      if (!(await repo.confirm(userId, step, now()))) throw new HttpError(409, ALREADY_ON_MSG);
      const codes = await newRecoveryCodes(userId);
      await sessions.liftTwoFactor(userId);
      return codes;
    },

    async disable(userId: number, code: string): Promise<void> {
      const row = await repo.find(userId);
      if (!row?.confirmedAt) throw new HttpError(400, NOT_ON_MSG);
      if (await repo.twoFactorRequired()) throw new HttpError(400, REQUIRED_MSG);
      if (!(await useCode(userId, code))) throw new HttpError(400, WRONG_CODE_MSG);
      await repo.remove(userId);
    },

    async regenerateRecoveryCodes(userId: number, code: string): Promise<string[]> {
      const row = await repo.find(userId);
      if (!row?.confirmedAt) throw new HttpError(400, NOT_ON_MSG);
      if (!(await useCode(userId, code))) throw new HttpError(400, WRONG_CODE_MSG);
      return newRecoveryCodes(userId);
    },

    /** After a correct password: the account's second step. */
    async loginStep(userId: number): Promise<LoginStep> {
      const row = await repo.find(userId);
      if (row?.confirmedAt) return 'challenge';
      return (await repo.twoFactorRequired()) ? 'setup' : 'none';
    },

    /** A challenge for the code step (128 random bits; only its SHA-256 is stored), valid CHALLENGE_TTL_MS. */
    async startChallenge(input: { userId: number; firstLogin: boolean; userAgent: string; address: string }): Promise<string> {
      const challenge = randomBytes(16).toString('base64url');
      const at = clock.nowMs();
      await repo.createChallenge({ ...input, idHash: hashChallenge(challenge), now: new Date(at), expiresAt: new Date(at + CHALLENGE_TTL_MS) });
      return challenge;
    },

    /**
     * Completes a challenge with a code: answers what the session needs, or 401 saying how many tries
     * are left (the CHALLENGE_MAX_FAILURES-th wrong code locks the challenge: sign in again).
     */
    async completeChallenge(challenge: string, code: string) {
      const row = await openChallenge(challenge);
      const idHash = hashChallenge(challenge);
      if (!(await useCode(row.userId, code))) {
        const failures = await repo.failChallenge(idHash, CHALLENGE_MAX_FAILURES, now());
        if (failures === undefined) throw new HttpError(401, CHALLENGE_GONE_MSG);
        if (failures >= CHALLENGE_MAX_FAILURES) throw new HttpError(401, TOO_MANY_CODES_MSG);
        throw new HttpError(401, triesLeftMsg(CHALLENGE_MAX_FAILURES - failures));
      }
      if (!(await repo.claimChallenge(idHash, now()))) throw new HttpError(401, CHALLENGE_GONE_MSG);
      return { userId: row.userId, email: row.email, firstLogin: row.firstLogin, userAgent: row.userAgent, address: row.address };
    },

    async required(): Promise<boolean> {
      return repo.twoFactorRequired();
    },

    /** Requires two-factor of everyone, or stops; stopping lifts every session that waited for it. */
    async setRequired(required: boolean): Promise<void> {
      await repo.setTwoFactorRequired(required);
      if (!required) await sessions.liftTwoFactor();
    },

    /** An admin's reset (a lost phone): two-factor off and every session of the user ended. Answers whether it was on and how many sessions ended. */
    async reset(userId: number): Promise<{ wasOn: boolean; sessionsEnded: number }> {
      const wasOn = await repo.remove(userId);
      const sessionsEnded = await sessions.endAll(userId, 'admin');
      return { wasOn, sessionsEnded };
    },
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
