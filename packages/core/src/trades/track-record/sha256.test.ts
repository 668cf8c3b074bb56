import { describe, expect, it } from 'vitest';
import { sha256, sha256Hex, utf8Bytes } from './sha256';

// FIPS 180-4 / NIST CSRC example vectors.
describe('sha256: known vectors', () => {
  it('hashes the empty string', () => {
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('hashes "abc" (one block)', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('hashes the 448-bit two-block message', () => {
    expect(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('hashes one million "a"s', () => {
    expect(sha256Hex('a'.repeat(1_000_000))).toBe('cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0');
  });

  it('pads correctly at the 55/56/64-byte boundaries (one vs two blocks)', () => {
    // Messages of 55 bytes fit one block with the length; 56 needs a second block.
    expect(sha256Hex('a'.repeat(55))).toBe('9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318');
    expect(sha256Hex('a'.repeat(56))).toBe('b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a');
    expect(sha256Hex('a'.repeat(64))).toBe('ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb');
  });

  it('answers 32 bytes and takes bytes or strings alike', () => {
    expect(sha256(new Uint8Array([0x61, 0x62, 0x63]))).toEqual(sha256('abc'));
    expect(sha256('abc')).toHaveLength(32);
  });
});

describe('utf8Bytes', () => {
  it('encodes 1- to 4-byte characters', () => {
    expect(Array.from(utf8Bytes('a'))).toEqual([0x61]);
    expect(Array.from(utf8Bytes('é'))).toEqual([0xc3, 0xa9]);
    expect(Array.from(utf8Bytes('€'))).toEqual([0xe2, 0x82, 0xac]);
    expect(Array.from(utf8Bytes('😀'))).toEqual([0xf0, 0x9f, 0x98, 0x80]);
  });

  it('hashes non-ASCII text as UTF-8', () => {
    // SHA-256 of the UTF-8 bytes of "é" (c3 a9).
    expect(sha256Hex('é')).toBe(sha256Hex(new Uint8Array([0xc3, 0xa9])));
  });
});
