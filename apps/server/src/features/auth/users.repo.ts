import { and, asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import type { UserRole } from '../../db/tables/users';

export type UserRow = typeof users.$inferSelect;

/** What a change of role or state answers: done, or refused because it would leave no active admin. */
export type AdminGuarded = 'ok' | 'last-admin';

export function createUsersRepo(db: Database) {
  /**
   * Applies `change` to user `id`; when it may take away an admin (a demotion or a deactivation), first locks the active admins' rows (FOR UPDATE: two admins demoting each other
   * at once cannot both pass) and refuses if `id` is the only one.
   */
  async function guardLastAdmin(id: number, takesAdminAway: boolean, change: Partial<Pick<UserRow, 'isActive' | 'role'>>): Promise<AdminGuarded> {
    return db.transaction(async (tx) => {
      if (takesAdminAway) {
        const admins = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.role, 'admin'), eq(users.isActive, true)))
          .for('update');
        if (admins.length === 1 && admins[0]!.id === id) return 'last-admin';
      }
      await tx.update(users).set({ ...change, updatedAt: sql`now()` }).where(eq(users.id, id));
      return 'ok';
    });
  }

  return {
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
      return row;
    },
    async findById(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    async create(input: { email: string; passwordHash: string; firstLogin: boolean; role?: UserRole }): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ email: input.email.toLowerCase(), passwordHash: input.passwordHash, firstLogin: input.firstLogin, role: input.role ?? 'member' })
        .returning();
      return row!;
    },
    async count(): Promise<number> {
      const [row] = await db.select({ count: sql<number>`count(*)::int` }).from(users);
      return row?.count ?? 0;
    },
    async list(): Promise<UserRow[]> {
      return db.select().from(users).orderBy(asc(users.id));
    },
    async setPassword(id: number, passwordHash: string, firstLogin: boolean): Promise<void> {
      await db
        .update(users)
        .set({ passwordHash, firstLogin, tempPasswordHash: null, tempPasswordExpiresAt: null, updatedAt: sql`now()` })
        .where(eq(users.id, id));
    },
    async setTemporaryPassword(id: number, tempPasswordHash: string, expiresAt: Date): Promise<void> {
      await db
        .update(users)
        .set({ tempPasswordHash, tempPasswordExpiresAt: expiresAt, updatedAt: sql`now()` })
        .where(eq(users.id, id));
    },
    /**
     * Deactivates or re-activates an account. The last active admin is never deactivated (answers
     * 'last-admin'): an installation always keeps someone who can administer it.
     */
    async setActive(id: number, isActive: boolean): Promise<AdminGuarded> {
      return guardLastAdmin(id, !isActive, { isActive });
    },
    /** Makes an account an admin or a member; the last active admin is never demoted (answers 'last-admin'). */
    async setRole(id: number, role: UserRole): Promise<AdminGuarded> {
      return guardLastAdmin(id, role === 'member', { role });
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
