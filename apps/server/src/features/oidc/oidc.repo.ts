/** The provider accounts linked to users (db/tables/oidc.ts). */
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { oidcIdentities, users } from '../../db/schema';

export type OidcIdentityRow = typeof oidcIdentities.$inferSelect;

export interface ProviderAccount {
  issuer: string;
  subject: string;
  email: string;
}

export function createOidcRepo(db: Database) {
  return {
    /** The user a provider account is linked to, with what sign-in needs of them. */
    async findUser(issuer: string, subject: string): Promise<{ identityId: number; userId: number; isActive: boolean } | undefined> {
      const [row] = await db
        .select({ identityId: oidcIdentities.id, userId: users.id, isActive: users.isActive })
        .from(oidcIdentities)
        .innerJoin(users, eq(users.id, oidcIdentities.userId))
        .where(and(eq(oidcIdentities.issuer, issuer), eq(oidcIdentities.subject, subject)));
      return row;
    },

    /** Links `account` to `userId`: 'linked', 'already-yours' (linked to this user before), or 'taken' (another user's). */
    async link(userId: number, account: ProviderAccount, now: Date): Promise<'linked' | 'already-yours' | 'taken'> {
      const [inserted] = await db
        .insert(oidcIdentities)
        .values({ userId, issuer: account.issuer, subject: account.subject, email: account.email, linkedAt: now })
        .onConflictDoNothing()
        .returning({ id: oidcIdentities.id });
      if (inserted) return 'linked';
      const existing = await this.findUser(account.issuer, account.subject);
      return existing?.userId === userId ? 'already-yours' : 'taken';
    },

    /** Records a sign-in with it (and the provider's e-mail as of now). */
    async used(identityId: number, email: string, now: Date): Promise<void> {
      await db.update(oidcIdentities).set({ lastUsedAt: now, email }).where(eq(oidcIdentities.id, identityId));
    },

    async listForUser(userId: number, issuer: string): Promise<OidcIdentityRow[]> {
      return db
        .select()
        .from(oidcIdentities)
        .where(and(eq(oidcIdentities.userId, userId), eq(oidcIdentities.issuer, issuer)))
        .orderBy(asc(oidcIdentities.linkedAt), asc(oidcIdentities.id));
    },

    /** Removes one of the user's links; false when the user has no such link. */
    async unlink(userId: number, identityId: number): Promise<OidcIdentityRow | undefined> {
      const [row] = await db
        .delete(oidcIdentities)
        .where(and(eq(oidcIdentities.id, identityId), eq(oidcIdentities.userId, userId)))
        .returning();
      return row;
    },

    /** Users with at least one link to `issuer` (the admin's users list: their sign-in methods). */
    async linkedUserIds(issuer: string): Promise<Set<number>> {
      const rows = await db
        .select({ userId: oidcIdentities.userId })
        .from(oidcIdentities)
        .where(eq(oidcIdentities.issuer, issuer))
        .groupBy(oidcIdentities.userId);
      return new Set(rows.map((row) => row.userId));
    },

    async count(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(oidcIdentities);
      return row?.count ?? 0;
    },
  };
}

export type OidcRepo = ReturnType<typeof createOidcRepo>;
