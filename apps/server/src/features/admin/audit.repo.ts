/** The admin audit log (issue 28; docs/accounts.md): rows are only ever added (migration 0020 refuses UPDATE, DELETE, TRUNCATE). */
import { desc, lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { auditLog } from '../../db/schema';

export type AuditRow = typeof auditLog.$inferSelect;

/** Who acted: an admin (with the request's address), or the command line / the server at start. */
export type AuditActor = { userId: number; email: string; address: string } | { name: 'command line' | 'ADMIN_EMAILS' };

export interface AuditRecord {
  action: string;
  /** The account acted on; an invitation names only its e-mail (no account exists yet). */
  target?: { id?: number; email: string };
  detail?: Record<string, unknown>;
}

/** Most rows one CSV carries (newest first): a household's installation writes far fewer. */
export const AUDIT_CSV_MAX_ROWS = 100_000;

export function createAuditRepo(db: Pick<Database, 'insert' | 'select'>) {
  return {
    async record(actor: AuditActor, entry: AuditRecord): Promise<void> {
      await db.insert(auditLog).values({
        actorUserId: 'userId' in actor ? actor.userId : null,
        actor: 'userId' in actor ? actor.email : actor.name,
        address: 'userId' in actor ? actor.address : '',
        action: entry.action,
        targetUserId: entry.target?.id ?? null,
        target: entry.target?.email ?? '',
        detail: entry.detail ?? {},
      });
    },

    /** A page, newest first: `limit` rows older than `before` (an id), and whether more are older. */
    async page(options: { before?: number; limit: number }): Promise<{ rows: AuditRow[]; more: boolean }> {
      const rows = await db
        .select()
        .from(auditLog)
        .where(options.before === undefined ? undefined : lt(auditLog.id, options.before))
        .orderBy(desc(auditLog.id))
        .limit(options.limit + 1);
      return { rows: rows.slice(0, options.limit), more: rows.length > options.limit };
    },

    async newest(max = AUDIT_CSV_MAX_ROWS): Promise<AuditRow[]> {
      return db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(max);
    },
  };
}

export type AuditRepo = ReturnType<typeof createAuditRepo>;
