import { describe, expect, it } from 'vitest';
import { base32Decode } from '../../lib/totp';
import { generateRecoveryCodes, normalizeRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes';

describe('recovery codes', () => {
  it('are ten distinct xxxxx-xxxxx base32 codes of 50 bits', () => {
    const codes = generateRecoveryCodes();
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) {
      expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
      // Ten base32 characters decode to 6 whole bytes (50 bits, the last two bits of padding dropped).
      expect(base32Decode(code)).toHaveLength(6);
    }
  });

  it('differ from one set to the next', () => {
    const first = new Set(generateRecoveryCodes());
    expect(generateRecoveryCodes().some((code) => first.has(code))).toBe(false);
  });

  it('are read ignoring case, spaces and dashes; anything else is not a code', () => {
    expect(normalizeRecoveryCode('abcde-fg234')).toBe('ABCDEFG234');
    expect(normalizeRecoveryCode(' ABCDE FG234 ')).toBe('ABCDEFG234');
    expect(normalizeRecoveryCode('abcdefg234')).toBe('ABCDEFG234');
    for (const typed of ['', '123456', 'abcde-fg23', 'abcde-fg2345', 'abcde-fg281', 'abcde_fg234']) expect(normalizeRecoveryCode(typed), typed).toBeUndefined();
  });
});
