import { describe, expect, it } from 'vitest';
import { canonicalJson, paramHash } from './param-hash';
import { sha256Hex } from './sha256';

describe('sha256', () => {
  it('matches the FIPS 180-4 vectors', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
    expect(sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('hashes multi-byte UTF-8 and the 55/56-byte padding edges', () => {
    // Reference values from node:crypto's createHash('sha256').
    expect(sha256Hex('Signalboard – prix €')).toBe('1862f960fa7788d039e2cb896e3dc14aa10dfa14d05292ab6fbe8f0413dceb43');
    expect(sha256Hex('a'.repeat(55))).toBe('9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318');
    expect(sha256Hex('a'.repeat(56))).toBe('b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a');
  });
});

describe('paramHash', () => {
  it('sorts keys at every depth, so key order does not change the hash', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, 2.5, 'x'], c: true } })).toBe('{"a":{"c":true,"d":[1,2.5,"x"]},"b":1}');
    expect(paramHash({ b: 1, a: 2 })).toBe(paramHash({ a: 2, b: 1 }));
    expect(paramHash({ a: 1 })).not.toBe(paramHash({ a: 1.0001 }));
    expect(paramHash({ a: 2, b: 1 })).toMatch(/^[0-9a-f]{16}$/);
    expect(paramHash({ a: 2, b: 1 })).toBe(sha256Hex('{"a":2,"b":1}').slice(0, 16));
  });

  it('refuses values JSON cannot carry', () => {
    expect(() => canonicalJson({ a: Number.NaN })).toThrow(/not a JSON number/);
  });
});
