/**
 * Single sign-on (issue 28; docs/accounts.md "Single sign-on"): the flows between the screens, the
 * provider and the accounts. A flow's secrets (state, nonce, PKCE verifier) wait in the shared store
 * for 10 minutes and are taken once; the callback's answer to the browser is a one-time code (60 s)
 * in the URL's fragment, exchanged by api/oidc/complete, so no token ever travels in a URL. A provider
 * account signs in only the user it is linked to (by issuer and subject), never by e-mail alone.
 * HTTP-free but for the callback's redirect locations: oidc.routes.ts translates.
 */
import { createHash, randomBytes } from 'node:crypto';
import { DEFAULT_FAVORITE_STOCKS, oidcErrorMessage, type OidcError, type OidcIdentitiesResponse, type UserRoleValue } from '@signalboard/core';
import type { CacheStore } from '../../lib/cache-store';
import type { Clock } from '../../lib/clock';
import { HttpError } from '../../lib/errors';
import { hashPassword } from '../../lib/password';
import type { AuditRepo } from '../admin/audit.repo';
import { DEACTIVATED_MSG } from '../auth/auth.service';
import { IDENTITY_TAKEN_MSG, type InvitationsService } from '../auth/invitations.service';
import type { UsersRepo } from '../auth/users.repo';
import type { FavoritesRepo } from '../watchlist/watchlist.repo';
import type { FlowChecks, OidcClient, VerifiedProviderAccount } from './oidc.client';
import type { OidcRepo, ProviderAccount } from './oidc.repo';

/** How long the browser has at the provider. */
export const FLOW_TTL_MS = 10 * 60 * 1000;
/** How long the callback's one-time code works. */
export const CODE_TTL_MS = 60 * 1000;

export const OIDC_NOT_CONFIGURED_MSG = 'Single sign-on is not set up on this installation.';
export const OIDC_UNREACHABLE_MSG = 'The sign-in provider could not be reached. Please try again in a moment.';
export const NO_SUCH_LINK_MSG = 'No linked sign-in account of yours has this id (it may have been unlinked already).';

/** Where a flow began, and so where its callback leads. */
type Purpose = 'sign-in' | 'link' | 'invitation';

interface StoredFlow extends FlowChecks {
  purpose: Purpose;
  /** link: the signed-in user who asked. */
  userId?: number;
  /** invitation: the link's token. */
  invitation?: string;
}

interface StoredCode {
  userId: number;
}

export interface OidcServiceDeps {
  /** Undefined without OIDC_ISSUER: every call but the identities list answers 404. */
  client: OidcClient | undefined;
  repo: OidcRepo;
  users: Pick<UsersRepo, 'findById' | 'findByEmail' | 'create'>;
  invitations: Pick<InvitationsService, 'acceptWithProvider'>;
  /** An account single sign-on creates starts with the MAG 7, as a first login's password change gives them. */
  favorites: Pick<FavoritesRepo, 'upsert'>;
  audit: AuditRepo;
  store: CacheStore;
  clock: Clock;
  label: string;
  /** OIDC_AUTO_CREATE */
  autoCreate: boolean;
  /** OIDC_ONLY: members sign in through the provider only. */
  only: boolean;
  /** The provider's callback: PUBLIC_URL/api/oidc/callback. */
  redirectUri: string;
  log: { warn: (message: string) => void };
}

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const encode = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));
const decode = <T>(bytes: Uint8Array): T => JSON.parse(new TextDecoder().decode(bytes)) as T;

/** Thrown inside the callback: the reason the browser is told. */
class FlowRefused extends Error {
  constructor(readonly reason: OidcError, detail?: string) {
    super(detail ?? reason);
  }
}

export function createOidcService(deps: OidcServiceDeps) {
  const { client, repo, users, invitations, audit, store, clock, label } = deps;
  const now = () => new Date(clock.nowMs());

  function configured(): OidcClient {
    if (!client) throw new HttpError(404, OIDC_NOT_CONFIGURED_MSG);
    return client;
  }

  /** Takes a stored value once, across every process (the lock decides who takes it). */
  async function takeOnce<T>(key: string, ttlMs: number): Promise<T | undefined> {
    if ((await store.tryLock(`${key}:taken`, ttlMs)) === undefined) return undefined;
    const bytes = await store.getBytes(key);
    if (!bytes) return undefined;
    await store.deleteBytes(key);
    return decode<T>(bytes);
  }

  async function begin(flow: Omit<StoredFlow, keyof FlowChecks>): Promise<string> {
    const rp = configured();
    const checks = await rp.newFlow();
    let url: string;
    try {
      url = await rp.authorizationUrl(checks);
    } catch (error) {
      deps.log.warn(`single sign-on: the provider's discovery failed: ${(error as Error).message}`);
      throw new HttpError(502, OIDC_UNREACHABLE_MSG);
    }
    await store.setBytes(`oidc-flow:${sha256(checks.state)}`, encode({ ...flow, ...checks } satisfies StoredFlow), FLOW_TTL_MS);
    return url;
  }

  /** A one-time code for `/login#oidc=…`. */
  async function issueCode(userId: number): Promise<string> {
    const code = randomBytes(32).toString('base64url');
    await store.setBytes(`oidc-code:${sha256(code)}`, encode({ userId } satisfies StoredCode), CODE_TTL_MS);
    return code;
  }

  function verifiedAccount(account: VerifiedProviderAccount): ProviderAccount {
    if (account.email === undefined || !account.emailVerified) throw new FlowRefused('no_verified_email');
    return { issuer: account.issuer, subject: account.subject, email: account.email };
  }

  async function signIn(account: ProviderAccount, address: string): Promise<number> {
    const linked = await repo.findUser(account.issuer, account.subject);
    if (linked) {
      if (!linked.isActive) throw new FlowRefused('deactivated');
      await repo.used(linked.identityId, account.email, now());
      return linked.userId;
    }
    // Never by e-mail alone: an account with this e-mail must link the provider account itself first.
    if (!deps.autoCreate || (await users.findByEmail(account.email))) throw new FlowRefused('not_linked');
    const user = await users.create({ email: account.email, passwordHash: await hashPassword(randomBytes(32).toString('base64url')), firstLogin: false, role: 'member' });
    const outcome = await repo.link(user.id, account, now());
    if (outcome !== 'linked') throw new FlowRefused('already_linked');
    await audit.record({ userId: user.id, email: user.email, address }, { action: 'oidc-create-account', target: { id: user.id, email: user.email }, detail: { issuer: account.issuer } });
    await deps.favorites.upsert(user.id, [...DEFAULT_FAVORITE_STOCKS]);
    return user.id;
  }

  return {
    label,
    isConfigured: client !== undefined,
    /** The login screen's password form: for everyone, or (OIDC_ONLY) for admins only. */
    passwordForm: (client !== undefined && deps.only ? 'admins' : 'everyone') as 'everyone' | 'admins',

    /** POST api/oidc/start: sign in, or accept the invitation of `invitation` with the provider. */
    start(invitation?: string): Promise<string> {
      return begin(invitation === undefined ? { purpose: 'sign-in' } : { purpose: 'invitation', invitation });
    },

    /** POST api/oidc/link: link a provider account to the signed-in `userId`. */
    link(userId: number): Promise<string> {
      return begin({ purpose: 'link', userId });
    },

    /**
     * GET api/oidc/callback: where to send the browser. `query` is the callback's query string as
     * received (the code, state, maybe iss or an error).
     */
    async callback(query: URLSearchParams, address: string): Promise<string> {
      const state = query.get('state');
      const flow = state ? await takeOnce<StoredFlow>(`oidc-flow:${sha256(state)}`, FLOW_TTL_MS) : undefined;
      const back = (purpose: Purpose | undefined, fragment: string) => `${purpose === 'link' ? '/dashboard/account' : '/login'}#${fragment}`;
      if (!client) return back(flow?.purpose, 'oidc_error=not_configured');
      if (!flow) return back(undefined, 'oidc_error=expired');
      try {
        const error = query.get('error');
        if (error !== null) throw new FlowRefused(error === 'access_denied' ? 'cancelled' : 'failed', `the provider answered ${error}: ${query.get('error_description') ?? ''}`);
        const callbackUrl = new URL(deps.redirectUri);
        callbackUrl.search = query.toString();
        let verified: VerifiedProviderAccount;
        try {
          verified = await client.exchange(callbackUrl, flow);
        } catch (cause) {
          throw new FlowRefused('failed', (cause as Error).message);
        }
        const account = verifiedAccount(verified);
        if (flow.purpose === 'link') {
          const user = flow.userId === undefined ? undefined : await users.findById(flow.userId);
          if (!user || !user.isActive) throw new FlowRefused('deactivated');
          const outcome = await repo.link(user.id, account, now());
          if (outcome === 'taken') throw new FlowRefused('already_linked');
          if (outcome === 'linked') await audit.record({ userId: user.id, email: user.email, address }, { action: 'oidc-link', target: { id: user.id, email: user.email }, detail: { issuer: account.issuer, provider_email: account.email } });
          return back('link', 'oidc=linked');
        }
        if (flow.purpose === 'invitation') {
          try {
            const { userId } = await invitations.acceptWithProvider(flow.invitation ?? '', account, address);
            await deps.favorites.upsert(userId, [...DEFAULT_FAVORITE_STOCKS]);
            return back('invitation', `oidc=${await issueCode(userId)}`);
          } catch (refusal) {
            if (refusal instanceof HttpError && refusal.message === IDENTITY_TAKEN_MSG) throw new FlowRefused('already_linked');
            if (refusal instanceof HttpError) throw new FlowRefused('invitation', refusal.message);
            throw refusal;
          }
        }
        return back('sign-in', `oidc=${await issueCode(await signIn(account, address))}`);
      } catch (error) {
        // The browser is navigating: whatever went wrong, it lands on a screen that says so.
        if (!(error instanceof FlowRefused)) deps.log.warn(`single sign-on failed: ${(error as Error).message}`);
        else if (error.reason === 'failed') deps.log.warn(`single sign-on refused: ${error.message}`);
        return back(flow.purpose, `oidc_error=${error instanceof FlowRefused ? error.reason : 'failed'}`);
      }
    },

    /** POST api/oidc/complete: the user the callback's one-time code signs in (once, within 60 s). */
    async complete(code: string): Promise<{ userId: number; email: string; role: UserRoleValue }> {
      const stored = await takeOnce<StoredCode>(`oidc-code:${sha256(code)}`, CODE_TTL_MS);
      if (!stored) throw new HttpError(401, oidcErrorMessage('expired', label));
      const user = await users.findById(stored.userId);
      if (!user) throw new HttpError(401, oidcErrorMessage('expired', label));
      if (!user.isActive) throw new HttpError(403, DEACTIVATED_MSG);
      return { userId: user.id, email: user.email, role: user.role };
    },

    async identities(userId: number): Promise<OidcIdentitiesResponse> {
      if (!client) return { configured: false, label, identities: [] };
      const rows = await repo.listForUser(userId, client.issuer);
      return {
        configured: true,
        label,
        identities: rows.map((row) => ({ id: String(row.id), email: row.email, linked_at: row.linkedAt.toISOString(), last_used_at: row.lastUsedAt?.toISOString() ?? null })),
      };
    },

    /** POST api/oidc/unlink. Under OIDC_ONLY a member keeps at least one link (it is their only way in). */
    async unlink(user: { id: number; email: string; role: UserRoleValue }, id: string, address: string): Promise<string> {
      const rp = configured();
      const identityId = Number(id);
      const mine = Number.isSafeInteger(identityId) ? (await repo.listForUser(user.id, rp.issuer)).find((row) => row.id === identityId) : undefined;
      if (!mine) throw new HttpError(404, NO_SUCH_LINK_MSG);
      if (deps.only && user.role !== 'admin' && (await repo.listForUser(user.id, rp.issuer)).length === 1) {
        throw new HttpError(409, `Members sign in with ${label} only on this installation: this is your last linked ${label} account, so it stays.`);
      }
      await repo.unlink(user.id, identityId);
      await audit.record({ userId: user.id, email: user.email, address }, { action: 'oidc-unlink', target: { id: user.id, email: user.email }, detail: { issuer: mine.issuer, provider_email: mine.email } });
      return `Your ${label} account ${mine.email} is unlinked: it can no longer sign in here.`;
    },

    /** The users with a link (the admin's list shows "Single sign-on" among their sign-in methods). */
    linkedUserIds(): Promise<Set<number>> {
      return client ? repo.linkedUserIds(client.issuer) : Promise.resolve(new Set());
    },
  };
}

export type OidcService = ReturnType<typeof createOidcService>;
