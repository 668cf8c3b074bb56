/**
 * Web Push primitives: RFC 8291's worked example byte for byte, the VAPID key file and variables,
 * and whole requests checked by the fake push service (test/fake-push-service.ts, which decrypts
 * with http_ece and verifies the RFC 8292 JWT on its own). Issue 27; docs/rules/alerts.md §4.8.
 */
import { createECDH, generateKeyPairSync, sign } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import httpEce from 'http_ece';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakePushService, type FakePushService } from '../../../test/fake-push-service';
import { postPinned } from '../outbound/post-pinned';
import { encryptPushPayload, MAX_PUSH_PLAINTEXT_BYTES, pushRequest } from './encrypt';
import { generateVapidKeys, loadVapidKeys, VAPID_KEYS_FILE, vapidAuthorization } from './vapid';

/** RFC 8291 §5 and Appendix A. */
const RFC8291 = {
  plaintext: 'When I grow up, I want to be a watermelon',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  authSecret: 'BTBZMqHH6r4Tts7J_aSIgg',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  body:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPT' +
    'pK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

const SUBJECT = 'mailto:ops@signalboard.example';

function rfcServerKeys() {
  const serverKeys = createECDH('prime256v1');
  serverKeys.setPrivateKey(Buffer.from(RFC8291.asPrivate, 'base64url'));
  return serverKeys;
}

/** Decrypts as the RFC's user agent would, with http_ece (not our code). */
function decryptAsRfcUserAgent(body: Buffer): string {
  const receiverKeys = createECDH('prime256v1');
  receiverKeys.setPrivateKey(Buffer.from(RFC8291.uaPrivate, 'base64url'));
  return httpEce.decrypt(body, { version: 'aes128gcm', privateKey: receiverKeys, authSecret: RFC8291.authSecret }).toString('utf8');
}

const rfcKeys = { p256dh: RFC8291.uaPublic, auth: RFC8291.authSecret };

describe('encryptPushPayload (RFC 8291)', () => {
  it('gives the RFC 8291 Appendix A body to the byte', () => {
    const serverKeys = rfcServerKeys();
    expect(serverKeys.getPublicKey().toString('base64url')).toBe(RFC8291.asPublic);
    const body = encryptPushPayload(RFC8291.plaintext, rfcKeys, { salt: Buffer.from(RFC8291.salt, 'base64url'), serverKeys });
    expect(body.toString('base64url')).toBe(RFC8291.body);
    expect(decryptAsRfcUserAgent(body)).toBe(RFC8291.plaintext);
  });

  it('takes padded base64 keys as the same keys', () => {
    const padded = { p256dh: Buffer.from(RFC8291.uaPublic, 'base64url').toString('base64'), auth: Buffer.from(RFC8291.authSecret, 'base64url').toString('base64') };
    expect(padded.p256dh).toMatch(/[+/=]/);
    const body = encryptPushPayload(RFC8291.plaintext, padded, { salt: Buffer.from(RFC8291.salt, 'base64url'), serverKeys: rfcServerKeys() });
    expect(body.toString('base64url')).toBe(RFC8291.body);
  });

  it('uses a fresh server key and salt each time', () => {
    const first = encryptPushPayload(RFC8291.plaintext, rfcKeys);
    const second = encryptPushPayload(RFC8291.plaintext, rfcKeys);
    expect(first.subarray(0, 86).equals(second.subarray(0, 86))).toBe(false);
    expect(decryptAsRfcUserAgent(first)).toBe(RFC8291.plaintext);
    expect(decryptAsRfcUserAgent(second)).toBe(RFC8291.plaintext);
  });

  it('carries up to 3993 bytes in the one 4096-byte record, and refuses more', () => {
    const largest = 'é'.repeat((MAX_PUSH_PLAINTEXT_BYTES - 1) / 2) + 'x';
    expect(Buffer.byteLength(largest)).toBe(3993);
    const body = encryptPushPayload(largest, rfcKeys);
    expect(body.length).toBe(4096);
    expect(decryptAsRfcUserAgent(body)).toBe(largest);
    expect(() => encryptPushPayload(Buffer.alloc(3994, 0x61), rfcKeys)).toThrow(/at most 3993 bytes, not 3994/);
  });

  it('refuses keys that are not a 65-byte point and a 16-byte secret', () => {
    const shortPoint = Buffer.from(RFC8291.uaPublic, 'base64url').subarray(0, 33).toString('base64url');
    expect(() => encryptPushPayload('x', { ...rfcKeys, p256dh: shortPoint })).toThrow(/p256dh key must be .*65 bytes.*got 33 bytes/);
    expect(() => encryptPushPayload('x', { ...rfcKeys, p256dh: 'not base64!' })).toThrow(/p256dh key .*not base64url/);
    const offCurve = Buffer.alloc(65, 1);
    offCurve[0] = 0x04;
    expect(() => encryptPushPayload('x', { ...rfcKeys, p256dh: offCurve.toString('base64url') })).toThrow(/not a point on the P-256 curve/);
    expect(() => encryptPushPayload('x', { ...rfcKeys, auth: Buffer.alloc(12).toString('base64url') })).toThrow(/auth secret must be 16 bytes.*got 12 bytes/);
  });
});

describe('vapidAuthorization (RFC 8292)', () => {
  const keys = generateVapidKeys();
  const decodePart = (part: string | undefined) => JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

  it('makes base64url keys of 65 and 32 bytes', () => {
    expect(Buffer.from(keys.publicKey, 'base64url')).toHaveLength(65);
    expect(Buffer.from(keys.privateKey, 'base64url')).toHaveLength(32);
    expect(keys.publicKey).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('signs aud (the endpoint origin), exp and sub as an ES256 JWT, with k the public key', () => {
    const header = vapidAuthorization('https://push.example.net:8443/wpush/v2/abc?x=1', SUBJECT, keys, 1_800_000_000.7);
    const match = /^vapid t=([^,]+), k=(.+)$/.exec(header);
    expect(match?.[2]).toBe(keys.publicKey);
    const [head, claims, signature] = (match?.[1] ?? '').split('.');
    expect(decodePart(head)).toEqual({ typ: 'JWT', alg: 'ES256' });
    expect(decodePart(claims)).toEqual({ aud: 'https://push.example.net:8443', exp: 1_800_000_000 + 12 * 3600, sub: SUBJECT });
    expect(Buffer.from(signature ?? '', 'base64url')).toHaveLength(64);
  });

  it('refuses a lifetime over 24 h and a subject that is not mailto: or https:', () => {
    expect(() => vapidAuthorization('https://push.example.net/x', SUBJECT, keys, 0, 24 * 3600 + 1)).toThrow(/1 to 86400 seconds/);
    expect(() => vapidAuthorization('https://push.example.net/x', 'ops@signalboard.example', keys, 0)).toThrow(/mailto: or https: URL/);
    expect(() => vapidAuthorization('https://push.example.net/x', 'http://signalboard.example', keys, 0)).toThrow(/mailto: or https: URL/);
    expect(vapidAuthorization('https://push.example.net/x', 'https://signalboard.example/contact', keys, 0)).toMatch(/^vapid t=/);
  });
});

describe('loadVapidKeys', () => {
  let root: string;
  let dirCount = 0;
  const freshDir = () => path.join(root, `data-${++dirCount}`, 'nested');

  beforeAll(async () => {
    root = await fs.mkdtemp(path.join(os.tmpdir(), 'sb-vapid-'));
  });
  afterAll(async () => {
    await fs.rm(root, { recursive: true, force: true });
  });

  it('makes DATA_DIR/vapid-keys.json once (mode 0600) and reuses it', async () => {
    const dataDir = freshDir();
    const first = await loadVapidKeys({ dataDir });
    const file = path.join(dataDir, VAPID_KEYS_FILE);
    expect(JSON.parse(await fs.readFile(file, 'utf8'))).toEqual(first);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
    expect(await loadVapidKeys({ dataDir, publicKey: '', privateKey: undefined })).toEqual(first);
  });

  it('gives two loads started at once the same pair', async () => {
    const dataDir = freshDir();
    const loads = await Promise.all([loadVapidKeys({ dataDir }), loadVapidKeys({ dataDir }), loadVapidKeys({ dataDir })]);
    expect(loads[1]).toEqual(loads[0]);
    expect(loads[2]).toEqual(loads[0]);
    expect(JSON.parse(await fs.readFile(path.join(dataDir, VAPID_KEYS_FILE), 'utf8'))).toEqual(loads[0]);
  });

  it('waits for a file another process created but has not written yet', async () => {
    const dataDir = freshDir();
    await fs.mkdir(dataDir, { recursive: true });
    const file = path.join(dataDir, VAPID_KEYS_FILE);
    await fs.writeFile(file, '', { mode: 0o600 });
    const written = generateVapidKeys();
    setTimeout(() => void fs.writeFile(file, JSON.stringify(written)), 100);
    expect(await loadVapidKeys({ dataDir })).toEqual(written);
  });

  it('names a corrupt file', async () => {
    const dataDir = freshDir();
    await fs.mkdir(dataDir, { recursive: true });
    const file = path.join(dataDir, VAPID_KEYS_FILE);
    await fs.writeFile(file, JSON.stringify({ publicKey: generateVapidKeys().publicKey, privateKey: generateVapidKeys().privateKey }));
    await expect(loadVapidKeys({ dataDir })).rejects.toThrow(`${file} is corrupt: the private key does not belong to the public key`);
    await fs.writeFile(file, '{"publicKey": 1}');
    await expect(loadVapidKeys({ dataDir })).rejects.toThrow(`${file} is corrupt: expected {"publicKey"`);
  });

  it('takes a valid VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY pair and writes no file', async () => {
    const dataDir = freshDir();
    const pair = generateVapidKeys();
    const padded = { publicKey: Buffer.from(pair.publicKey, 'base64url').toString('base64'), privateKey: `${pair.privateKey}=` };
    expect(await loadVapidKeys({ dataDir, ...pair })).toEqual(pair);
    expect(await loadVapidKeys({ dataDir, ...padded })).toEqual(pair);
    await expect(fs.access(dataDir)).rejects.toThrow(/ENOENT/);
  });

  it('refuses a mismatched or malformed pair, naming the variables', async () => {
    const dataDir = freshDir();
    const [one, other] = [generateVapidKeys(), generateVapidKeys()];
    await expect(loadVapidKeys({ dataDir, publicKey: one.publicKey, privateKey: other.privateKey })).rejects.toThrow(
      'VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY: the private key does not belong to the public key',
    );
    await expect(loadVapidKeys({ dataDir, publicKey: one.publicKey.slice(0, 40), privateKey: one.privateKey })).rejects.toThrow(
      /^VAPID_PUBLIC_KEY\/VAPID_PRIVATE_KEY: the public key must be .*got 30 bytes/,
    );
    await expect(loadVapidKeys({ dataDir, publicKey: one.publicKey, privateKey: Buffer.alloc(32).toString('base64url') })).rejects.toThrow(
      'VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY: the private key is not a valid P-256 scalar',
    );
  });

  it('refuses one of the two variables without the other', async () => {
    const dataDir = freshDir();
    const pair = generateVapidKeys();
    await expect(loadVapidKeys({ dataDir, publicKey: pair.publicKey })).rejects.toThrow('VAPID_PUBLIC_KEY is set but VAPID_PRIVATE_KEY is not');
    await expect(loadVapidKeys({ dataDir, privateKey: pair.privateKey })).rejects.toThrow('VAPID_PRIVATE_KEY is set but VAPID_PUBLIC_KEY is not');
  });
});

describe('pushRequest against the fake push service', () => {
  const vapid = generateVapidKeys();
  let service: FakePushService;

  beforeAll(async () => {
    service = await startFakePushService({ expectedPublicKey: vapid.publicKey });
  });
  afterAll(async () => {
    await service.close();
  });

  async function send(request: { url: string; headers: Record<string, string>; body: Buffer }) {
    const response = await fetch(request.url, { method: 'POST', headers: request.headers, body: request.body });
    await response.arrayBuffer();
    return response.status;
  }

  it('is delivered: the fake verifies the VAPID token and decrypts the payload', async () => {
    const subscription = service.subscribe();
    const payload = JSON.stringify({ title: 'AAPL crossed 212.40', body: 'prix élevé — 🚀' });
    const request = pushRequest(subscription, payload, vapid, SUBJECT, new Date(), { urgency: 'high', topic: 'alert-AAPL_1', ttlSeconds: 600 });
    expect(request.url).toBe(subscription.endpoint);
    expect(request.headers).toMatchObject({ 'content-encoding': 'aes128gcm', 'content-type': 'application/octet-stream', ttl: '600', urgency: 'high', topic: 'alert-AAPL_1' });
    const before = service.received.length;
    expect(await send(request)).toBe(201);
    await service.waitFor(before + 1);
    const receipt = service.received[before];
    expect(receipt).toMatchObject({ path: new URL(subscription.endpoint).pathname, status: 201, vapidOk: true, vapidError: null, payload, decryptError: null });
    expect(receipt?.headers).toMatchObject({ ttl: '600', urgency: 'high', topic: 'alert-AAPL_1' });
  });

  it('defaults to TTL 86400 and normal urgency, without a topic', () => {
    const request = pushRequest(service.subscribe(), 'hi', vapid, SUBJECT, new Date());
    expect(request.headers).toMatchObject({ ttl: '86400', urgency: 'normal' });
    expect(request.headers).not.toHaveProperty('topic');
    expect(() => pushRequest(service.subscribe(), 'hi', vapid, SUBJECT, new Date(), { topic: 'x'.repeat(33) })).toThrow(/1 to 32 base64url characters/);
  });

  it('is delivered through postPinned with the Buffer body', async () => {
    const subscription = service.subscribe();
    const request = pushRequest(subscription, 'through postPinned', vapid, SUBJECT, new Date());
    const url = new URL(request.url);
    const answer = await postPinned({ url, address: '127.0.0.1', family: 4 }, request.body, request.headers);
    expect(answer.status).toBe(201);
    const receipt = service.received.at(-1);
    expect(receipt).toMatchObject({ status: 201, vapidOk: true, payload: 'through postPinned' });
    expect(receipt?.headers['content-length']).toBe(String(request.body.length));
  });

  it('is refused (400) with a tampered token or another key', async () => {
    const subscription = service.subscribe();
    const request = pushRequest(subscription, 'tampered', vapid, SUBJECT, new Date());
    // Claims changed after signing: the signature no longer verifies.
    const [head = '', , signature = ''] = (/t=([^,]+)/.exec(request.headers.authorization ?? '')?.[1] ?? '').split('.');
    const forgedClaims = Buffer.from(JSON.stringify({ aud: service.origin, exp: Math.floor(Date.now() / 1000) + 3600, sub: 'mailto:evil@example.com' })).toString('base64url');
    const tampered = { ...request, headers: { ...request.headers, authorization: `vapid t=${head}.${forgedClaims}.${signature}, k=${vapid.publicKey}` } };
    expect(await send(tampered)).toBe(400);
    expect(service.received.at(-1)).toMatchObject({ status: 400, vapidOk: false, vapidError: 'the signature does not verify with k=', payload: 'tampered' });

    // A whole other pair: it verifies, but it is not the key the subscription was made with.
    const stranger = pushRequest(subscription, 'stranger', generateVapidKeys(), SUBJECT, new Date());
    expect(await send(stranger)).toBe(400);
    expect(service.received.at(-1)).toMatchObject({ vapidOk: false, vapidError: 'k= is not the expected public key' });

    // Signed with another private key but naming ours in k=.
    const { privateKey: otherKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const signingInput = `${head}.${forgedClaims}`;
    const otherSignature = sign('sha256', Buffer.from(signingInput), { key: otherKey, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    expect(await send({ ...request, headers: { ...request.headers, authorization: `vapid t=${signingInput}.${otherSignature}, k=${vapid.publicKey}` } })).toBe(400);
    expect(service.received.at(-1)).toMatchObject({ vapidOk: false, vapidError: 'the signature does not verify with k=' });

    const { authorization: _dropped, ...withoutAuthorization } = request.headers;
    expect(await send({ ...request, headers: withoutAuthorization })).toBe(400);
    expect(service.received.at(-1)).toMatchObject({ vapidOk: false, vapidError: 'no Authorization header' });
  });

  it('is refused (400) when encrypted for another subscription', async () => {
    const [subscription, other] = [service.subscribe(), service.subscribe()];
    const request = pushRequest({ endpoint: subscription.endpoint, keys: other.keys }, 'wrong keys', vapid, SUBJECT, new Date());
    expect(await send(request)).toBe(400);
    expect(service.received.at(-1)).toMatchObject({ status: 400, vapidOk: true, payload: null });
    expect(service.received.at(-1)?.decryptError).toEqual(expect.any(String));
  });

  it('answers 410 for a gone subscription, statuses in turn, and 404 for an unknown endpoint', async () => {
    const gone = service.subscribe();
    service.answer(gone.endpoint, 410);
    expect(await send(pushRequest(gone, 'a', vapid, SUBJECT, new Date()))).toBe(410);
    expect(await send(pushRequest(gone, 'b', vapid, SUBJECT, new Date()))).toBe(410);

    const busy = service.subscribe();
    service.answer(busy.endpoint, 429, 503, 201);
    const statuses = [];
    for (const text of ['1', '2', '3', '4']) statuses.push(await send(pushRequest(busy, text, vapid, SUBJECT, new Date())));
    expect(statuses).toEqual([429, 503, 201, 201]);

    const unknown = { ...busy, endpoint: `${service.origin}/push/never-given` };
    expect(await send(pushRequest(unknown, 'c', vapid, SUBJECT, new Date()))).toBe(404);
  });
});
