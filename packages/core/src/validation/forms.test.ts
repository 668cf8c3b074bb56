import { describe, expect, it } from 'vitest';
import { isSupportFormComplete, validateLoginForm } from './forms';

describe('login form (spec §5)', () => {
  it('requires both fields with the spec wording', () => {
    expect(validateLoginForm({ email: '', password: '' })).toEqual({
      email: 'Email is required',
      password: 'Password is required',
    });
    expect(validateLoginForm({ email: '   ', password: 'x' })).toEqual({ email: 'Email is required' });
    expect(validateLoginForm({ email: 'a@b.c', password: 'x' })).toEqual({});
  });
});

describe('support form (spec §5)', () => {
  it('needs a header and a body', () => {
    expect(isSupportFormComplete({ header: 'Help', body: 'Text' })).toBe(true);
    expect(isSupportFormComplete({ header: ' ', body: 'Text' })).toBe(false);
    expect(isSupportFormComplete({ header: 'Help', body: '' })).toBe(false);
  });
});
