/**
 * Types for the part of http_ece (Encrypted Content-Encoding, RFC 8188; Web Push keys, RFC 8291)
 * that the fake push service uses to decrypt, independently of the server's own encryption.
 * Issue 27; docs/rules/alerts.md §4.8.
 */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';

  interface EceParams {
    /** 'aes128gcm' (RFC 8188, the default) or the older 'aesgcm'. */
    version?: 'aes128gcm' | 'aesgcm';
    /** The receiver's key pair (decrypting) or the sender's (encrypting). */
    privateKey?: ECDH;
    /** The subscription's auth secret: bytes or base64url. */
    authSecret?: Buffer | string;
    /** The other side's public key (encrypting; aesgcm decrypting). */
    dh?: Buffer | string;
    salt?: Buffer | string;
    rs?: number;
    key?: Buffer | string;
    keyid?: Buffer | string;
    pad?: number;
  }

  const httpEce: {
    decrypt(buffer: Buffer, params: EceParams): Buffer;
    encrypt(buffer: Buffer, params: EceParams): Buffer;
  };
  export = httpEce;
}
