/**
 * What a new password must be (issue 28; docs/accounts.md): at least PASSWORD_MIN_LENGTH characters
 * and not one of the 10,000 most common passwords (common-passwords/README.md says where the list
 * comes from). Passwords an admin or the reset e-mail hands out are temporary and must be changed at
 * first login, so only the passwords people choose pass through here.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { PASSWORD_MIN_LENGTH } from '@signalboard/core';

export const PASSWORD_TOO_SHORT_MSG = `New password must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const PASSWORD_TOO_COMMON_MSG = 'New password is one of the most common passwords: please choose another';

/** Beside this file in the source; the build copies the folder beside the bundle. */
const LIST_FILE = fileURLToPath(new URL('./common-passwords/common-passwords.txt', import.meta.url));

let common: ReadonlySet<string> | undefined;

/** The list, read once on first use (78 KB; about a millisecond). */
function commonPasswords(): ReadonlySet<string> {
  common ??= new Set(
    readFileSync(LIST_FILE, 'utf8')
      .split('\n')
      .filter((line) => line !== ''),
  );
  return common;
}

/** Why `password` may not become an account's password, or undefined when it may. */
export function newPasswordProblem(password: string): string | undefined {
  // Characters as a person counts them: an emoji is one, not two UTF-16 units.
  if ([...password].length < PASSWORD_MIN_LENGTH) return PASSWORD_TOO_SHORT_MSG;
  if (commonPasswords().has(password.toLowerCase())) return PASSWORD_TOO_COMMON_MSG;
  return undefined;
}
