/**
 * Invitations (issue 28; docs/accounts.md; migration 0021_invitations). A link's token is 256 random
 * bits; only its SHA-256 is stored, so the table never holds a usable link. "Open" means neither
 * accepted nor revoked (expired ones stay open: they can be resent).
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { invitations, oidcIdentities, users } from '../../db/schema';
import type { InvitationSource } from '../../db/tables/invitations';
import type { UserRole } from '../../db/tables/users';
import type { ProviderAccount } from '../oidc/oidc.repo';

export type InvitationRow = typeof invitations.$inferSelect;

export const newInvitationToken = () => randomBytes(32).toString('base64url');
export const invitationTokenHash = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

const open = and(isNull(invitations.acceptedAt), isNull(invitations.revokedAt));

export function createInvitationsRepo(db: Database) {
  return {
    /** Open invitations, newest first, with the inviting admin's e-mail. */
    async listOpen(): Promise<Array<InvitationRow & { invitedByEmail: string | null }>> {
      const rows = await db
        .select({ invitation: invitations, invitedByEmail: users.email })
        .from(invitations)
        .leftJoin(users, eq(users.id, invitations.invitedBy))
        .where(open)
        .orderBy(desc(invitations.createdAt), desc(invitations.id));
      return rows.map((row) => ({ ...row.invitation, invitedByEmail: row.invitedByEmail }));
    },

    async findOpenById(id: number): Promise<InvitationRow | undefined> {
      const [row] = await db.select().from(invitations).where(and(eq(invitations.id, id), open));
      return row;
    },

    async findOpenByEmail(email: string): Promise<InvitationRow | undefined> {
      const [row] = await db.select().from(invitations).where(and(eq(invitations.email, email.toLowerCase()), open));
      return row;
    },

    /** The open invitation a link's token is for (expired or not: the caller tells them apart). */
    async findOpenByToken(token: string): Promise<InvitationRow | undefined> {
      const [row] = await db.select().from(invitations).where(and(eq(invitations.tokenHash, invitationTokenHash(token)), open));
      return row;
    },

    /**
     * A new open invitation; answers undefined when the e-mail has one already (the partial unique
     * index decides, so two admins inviting the same address at once make one).
     */
    async create(input: { email: string; role: UserRole; source: InvitationSource; invitedBy: number | null; token: string; now: Date; expiresAt: Date }): Promise<InvitationRow | undefined> {
      const [row] = await db
        .insert(invitations)
        .values({
          email: input.email.toLowerCase(),
          role: input.role,
          source: input.source,
          invitedBy: input.invitedBy,
          tokenHash: invitationTokenHash(input.token),
          createdAt: input.now,
          sentAt: input.now,
          expiresAt: input.expiresAt,
        })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    /** A new link for an open invitation (the earlier one stops working); answers whether it was still open. */
    async renew(id: number, token: string, now: Date, expiresAt: Date): Promise<boolean> {
      const rows = await db
        .update(invitations)
        .set({ tokenHash: invitationTokenHash(token), sentAt: now, expiresAt })
        .where(and(eq(invitations.id, id), open))
        .returning({ id: invitations.id });
      return rows.length > 0;
    },

    async revoke(id: number, now: Date): Promise<boolean> {
      const rows = await db.update(invitations).set({ revokedAt: now }).where(and(eq(invitations.id, id), open)).returning({ id: invitations.id });
      return rows.length > 0;
    },

    /**
     * Accepts the invitation of `token` if it is open and unexpired at `now`: in one transaction the
     * invitation row is locked, the account created and the invitation marked used, so a link works
     * once however many tabs submit it. Answers the new user, or why not.
     */
    async accept(
      token: string,
      input: { passwordHash: string; now: Date; link?: ProviderAccount },
    ): Promise<{ ok: true; userId: number; invitation: InvitationRow } | { ok: false; reason: 'invalid' | 'account-exists' | 'identity-taken' }> {
      const identityTaken = new Error('identity taken');
      return db.transaction(async (tx) => {
        const [invitation] = await tx
          .select()
          .from(invitations)
          .where(and(eq(invitations.tokenHash, invitationTokenHash(token)), open))
          .for('update');
        if (!invitation || invitation.expiresAt.getTime() <= input.now.getTime()) return { ok: false as const, reason: 'invalid' as const };
        const [user] = await tx
          .insert(users)
          .values({ email: invitation.email, passwordHash: input.passwordHash, firstLogin: false, role: invitation.role })
          .onConflictDoNothing()
          .returning({ id: users.id });
        if (!user) return { ok: false as const, reason: 'account-exists' as const };
        // Accepted with single sign-on: the provider account is linked in the same transaction.
        if (input.link) {
          const [linked] = await tx
            .insert(oidcIdentities)
            .values({ userId: user.id, ...input.link, linkedAt: input.now, lastUsedAt: input.now })
            .onConflictDoNothing()
            .returning({ id: oidcIdentities.id });
          if (!linked) throw identityTaken;
        }
        await tx
          .update(invitations)
          .set({ acceptedAt: input.now, acceptedUserId: user.id })
          .where(eq(invitations.id, invitation.id));
        return { ok: true as const, userId: user.id, invitation };
      }).catch((error: unknown) => {
        if (error === identityTaken) return { ok: false as const, reason: 'identity-taken' as const };
        throw error;
      });
    },

    /** Counts open invitations (the tests; the admin card's heading). */
    async countOpen(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(invitations).where(open);
      return row?.count ?? 0;
    },
  };
}

export type InvitationsRepo = ReturnType<typeof createInvitationsRepo>;
