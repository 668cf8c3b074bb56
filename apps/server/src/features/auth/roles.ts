/**
 * Who administers an installation (issue 28): every account is a member until made an admin, by
 * the CLI (`npm run user -- add <email> --admin`, `promote`) or by ADMIN_EMAILS at each start. The
 * last active admin is never demoted or deactivated (users.repo.ts guards it in one transaction).
 */
import type { AuditRepo } from '../admin/audit.repo';
import type { UsersRepo } from './users.repo';

/**
 * Makes each ADMIN_EMAILS address with an account an admin (and says so once it changes); an
 * address with no account is reported, not created: an account needs a password its owner chose.
 */
export async function applyAdminEmails(
  users: Pick<UsersRepo, 'findByEmail' | 'setRole'>,
  emails: readonly string[],
  log: { info(message: string): void; warn(message: string): void },
  audit?: Pick<AuditRepo, 'record'>,
): Promise<void> {
  for (const email of emails) {
    const user = await users.findByEmail(email);
    if (!user) {
      log.warn(`ADMIN_EMAILS names ${email}, which has no account: create it with \`npm run user -- add ${email} --admin\``);
      continue;
    }
    if (user.role === 'admin') continue;
    await users.setRole(user.id, 'admin');
    await audit?.record({ name: 'ADMIN_EMAILS' }, { action: 'set-role', target: user, detail: { from: user.role, to: 'admin' } });
    log.info(`${email} is an admin now (ADMIN_EMAILS)`);
  }
}
