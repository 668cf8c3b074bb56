import { asc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';

export type UserRow = typeof users.$inferSelect;

export function createUsersRepo(db: Database) {
  return {
    async findByEmail(email: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
      return row;
    },
    async findById(id: number): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },
    /** The fields every authenticated request needs, in one indexed read. */
    async findSessionUser(id: number): Promise<{ id: number; email: string; isActive: boolean } | undefined> {
      const [row] = await db
        .select({ id: users.id, email: users.email, isActive: users.isActive })
        .from(users)
        .where(eq(users.id, id));
      return row;
    },
    async create(input: { email: string; passwordHash: string; firstLogin: boolean }): Promise<UserRow> {
      const [row] = await db
        .insert(users)
        .values({ email: input.email.toLowerCase(), passwordHash: input.passwordHash, firstLogin: input.firstLogin })
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
    async setActive(id: number, isActive: boolean): Promise<void> {
      await db.update(users).set({ isActive, updatedAt: sql`now()` }).where(eq(users.id, id));
    },
  };
}

export type UsersRepo = ReturnType<typeof createUsersRepo>;
