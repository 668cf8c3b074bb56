import { readFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

const SENT = { msg: 'Support request sent successfully!' };
const ALLOWED = { msg: 'The attachment must be an image (PNG, JPEG, GIF or WebP), a PDF or a plain text file (UTF-8).' };
type Headers = { authorization: string };
type Attachment = { name: string; content: Buffer | string; type: string };

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
/** The start of a ZIP archive: a local file header of "a.txt". */
const ZIP = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x00, 0x00]), Buffer.alloc(16), Buffer.from('a.txt')]);
/** The start of a Windows executable (MZ header). */
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.from([0x90, 0x00, 0x03, 0x00, 0x00, 0x00, 0x04, 0x00]), Buffer.alloc(50)]);
const ELF = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0x00]), Buffer.alloc(56)]);
const HTML = '<!DOCTYPE html>\n<html><body><script>alert(document.cookie)</script></body></html>';

async function multipart(fields: Record<string, string>, files: Attachment[] = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append('file', new Blob([file.content], { type: file.type }), file.name);
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

async function send(t: TestApp, headers: Headers, fields: Record<string, string>, ...files: Attachment[]): Promise<LightMyRequestResponse> {
  const { payload, contentType } = await multipart(fields, files);
  const response = await t.app.inject({ method: 'POST', url: '/api/contact-support', headers: { ...headers, 'content-type': contentType }, payload });
  expect(response.statusCode, `answered 500: ${response.body}`).not.toBe(500);
  return response;
}

async function signedIn(t: TestApp, label: string): Promise<Headers> {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  return login(t.app, email, 'pw');
}

const outbox = async (t: TestApp) => t.db.select().from(outboxEmails);

describe('api/contact-support: support requests per user', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_MAX_PER_USER: '3', SUPPORT_WINDOW_SECONDS: '3600' });
  });
  afterAll(async () => t.close());

  it('answers the 4th request of an hour 429 with a msg and retry-after, sending nothing; another user is not affected; after the hour it works again', async () => {
    const user = await signedIn(t, 'support-limit');
    for (let index = 0; index < 3; index += 1) expect((await send(t, user, { header: `Help ${index}`, body: 'b' })).json()).toEqual(SENT);
    const before = (await outbox(t)).length;
    t.clock.advance(20 * 60 * 1000);
    const limited = await send(t, user, { header: 'Help 4', body: 'b' }, { name: 'log.txt', content: 'x', type: 'text/plain' });
    expect([limited.statusCode, limited.json()]).toEqual([429, { msg: 'Too many support requests (at most 3 every hour). Please try again in 40 minutes.' }]);
    expect(limited.headers['retry-after']).toBe(String(40 * 60));
    expect((await outbox(t)).length).toBe(before);

    const other = await signedIn(t, 'support-other');
    expect((await send(t, other, { header: 'Mine', body: 'b' })).json()).toEqual(SENT);

    t.clock.advance(40 * 60 * 1000);
    expect((await send(t, user, { header: 'Again', body: 'b' })).json()).toEqual(SENT);
  });
});

describe('api/contact-support: attachments by their content', () => {
  let t: TestApp;
  let headers: Headers;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_MAX_PER_USER: '100' });
    headers = await signedIn(t, 'support-content');
  });
  afterAll(async () => t.close());

  it('accepts PNG, JPEG, GIF, WebP, PDF and UTF-8 text, mailed with the type their bytes show (not the declared one)', async () => {
    const cases: Array<[Attachment, string]> = [
      [{ name: 'screen.png', content: PNG, type: 'image/png' }, 'image/png'],
      [{ name: 'photo.jpg', content: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]), type: 'application/octet-stream' }, 'image/jpeg'],
      [{ name: 'anim.gif', content: Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(8)]), type: 'image/gif' }, 'image/gif'],
      [{ name: 'shot.webp', content: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x24, 0, 0, 0]), Buffer.from('WEBPVP8 '), Buffer.alloc(8)]), type: 'image/webp' }, 'image/webp'],
      [{ name: 'report.pdf', content: PDF, type: 'application/pdf' }, 'application/pdf'],
      [{ name: 'notes.txt', content: 'Grüße — the log:\n\tline 2\r\n', type: 'text/plain' }, 'text/plain; charset=utf-8'],
      [{ name: 'data.bin', content: 'declared as an image, but it is plain text', type: 'image/png' }, 'text/plain; charset=utf-8'],
    ];
    for (const [file, mailedType] of cases) {
      const answer = await send(t, headers, { header: `Attachment ${file.name}`, body: 'see attached' }, file);
      expect([answer.statusCode, answer.json()], file.name).toEqual([200, SENT]);
      const row = (await outbox(t)).at(-1)!;
      expect(row.attachmentNames, file.name).toEqual([file.name]);
      expect(readFileSync(row.emlPath, 'utf8'), file.name).toContain(`Content-Type: ${mailedType}`);
    }
  });

  it('refuses executables, archives, HTML and other binaries with 415 and a msg naming what is allowed, writing nothing to the outbox', async () => {
    const before = (await outbox(t)).length;
    const cases: Attachment[] = [
      { name: 'setup.exe', content: EXE, type: 'application/x-msdownload' },
      { name: 'run', content: ELF, type: 'application/octet-stream' },
      { name: 'logs.zip', content: ZIP, type: 'application/zip' },
      { name: 'screenshot.png', content: ZIP, type: 'image/png' },
      { name: 'cat.png', content: HTML, type: 'image/png' },
      { name: 'page.txt', content: `  \n\n<html lang="en"><p>hi</p></html>`, type: 'text/plain' },
      { name: 'icon.svg', content: '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', type: 'image/svg+xml' },
      { name: 'latin1.txt', content: Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65]), type: 'text/plain' },
      { name: 'nul.txt', content: Buffer.from('text with a \u0000 byte'), type: 'text/plain' },
    ];
    const answers = [];
    for (const file of cases) {
      const answer = await send(t, headers, { header: 'Bad file', body: 'b' }, file);
      answers.push({ name: file.name, status: answer.statusCode, body: answer.json() });
    }
    expect(answers).toEqual(cases.map((file) => ({ name: file.name, status: 415, body: ALLOWED })));
    expect((await outbox(t)).length).toBe(before);
  });
});

describe('api/contact-support: uploads read at once', () => {
  let t: TestApp;
  let headers: Headers;
  beforeAll(async () => {
    t = await createTestApp({ SUPPORT_MAX_CONCURRENT_UPLOADS: '2', SUPPORT_MAX_PER_USER: '100' });
    headers = await signedIn(t, 'support-uploads');
  });
  afterAll(async () => t.close());

  /** A request whose body arrives in two halves: the second only on `finish()`. */
  async function heldUpload(label: string) {
    const { payload, contentType } = await multipart({ header: label, body: 'slow upload' }, [{ name: 'log.txt', content: 'x'.repeat(64 * 1024), type: 'text/plain' }]);
    let reading!: () => void;
    const started = new Promise<void>((resolve) => (reading = resolve));
    let sentHead = false;
    const body = new Readable({
      read() {
        if (sentHead) return;
        sentHead = true;
        reading();
        this.push(payload.subarray(0, 1000));
      },
    });
    const options: InjectOptions = { method: 'POST', url: '/api/contact-support', headers: { ...headers, 'content-type': contentType }, payload: body };
    const answer = t.app.inject(options);
    return {
      started,
      answer,
      finish() {
        body.push(payload.subarray(1000));
        body.push(null);
      },
    };
  }

  it('answers 503 with a msg and retry-after before reading the body while 2 uploads are being received, and takes it once one has ended', async () => {
    const first = await heldUpload('first');
    const second = await heldUpload('second');
    await Promise.all([first.started, second.started]);
    const before = (await outbox(t)).length;

    let thirdRead = false;
    const third = await t.app.inject({
      method: 'POST',
      url: '/api/contact-support',
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: new Readable({
        read() {
          thirdRead = true;
          this.push(null);
        },
      }),
    });
    expect([third.statusCode, third.json()]).toEqual([503, { msg: 'The server is receiving too many support requests right now. Please try again in a few seconds.' }]);
    expect(third.headers['retry-after']).toBe('5');
    expect(thirdRead).toBe(false);

    first.finish();
    expect((await first.answer).json()).toEqual(SENT);
    expect((await send(t, headers, { header: 'third, again', body: 'b' })).json()).toEqual(SENT);
    second.finish();
    expect((await second.answer).json()).toEqual(SENT);
    expect((await outbox(t)).map((row) => row.subject).slice(before)).toEqual(['[Support] first', '[Support] third, again', '[Support] second']);
  });

  it('frees the slot of an upload that fails (a malformed body) or is refused', async () => {
    for (let index = 0; index < 3; index += 1) {
      const answer = await t.app.inject({ method: 'POST', url: '/api/contact-support', headers: { ...headers, 'content-type': 'multipart/form-data; boundary=xyz' }, payload: 'garbage' });
      expect(answer.statusCode).toBe(400);
      expect((await send(t, headers, { header: 'h', body: 'b' }, { name: 'a.zip', content: ZIP, type: 'application/zip' })).statusCode).toBe(415);
    }
    expect((await send(t, headers, { header: 'still open', body: 'b' })).json()).toEqual(SENT);
  });
});

describe('api/contact-support: uploads over real sockets', () => {
  it('frees the slot of an upload whose client goes away mid-body, and a refused client still sending reads its 503', async () => {
    const t = await createTestApp({ SUPPORT_MAX_CONCURRENT_UPLOADS: '1', SUPPORT_MAX_PER_USER: '100' });
    try {
      const { authorization } = await signedIn(t, 'support-socket');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
      // A malformed form: 400 when a slot is free, 503 while the one slot is taken; it never sends mail.
      const probe = async () =>
        (await fetch(`${base}/api/contact-support`, { method: 'POST', headers: { authorization, 'content-type': 'multipart/form-data; boundary=xyz' }, body: 'garbage' })).status;
      const until = async (status: number) => {
        for (let tries = 0; tries < 200 && (await probe()) !== status; tries += 1) await new Promise((resolve) => setTimeout(resolve, 25));
        expect(await probe()).toBe(status);
      };

      const socket = net.connect((t.app.server.address() as AddressInfo).port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `POST /api/contact-support HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\nContent-Type: multipart/form-data; boundary=xyz\r\nContent-Length: 1000000\r\n\r\n` +
          `--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\nthe first bytes`,
      );
      await until(503);

      const { payload, contentType } = await multipart({ header: 'h', body: 'b' }, [{ name: 'big.txt', content: Buffer.alloc(5 * 1024 * 1024, 0x61), type: 'text/plain' }]);
      const refused = await fetch(`${base}/api/contact-support`, { method: 'POST', headers: { authorization, 'content-type': contentType }, body: payload });
      expect([refused.status, refused.headers.get('retry-after')]).toEqual([503, '5']);

      socket.destroy();
      await until(400);
      const accepted = await fetch(`${base}/api/contact-support`, { method: 'POST', headers: { authorization, 'content-type': contentType }, body: payload });
      expect([accepted.status, await accepted.json()]).toEqual([200, SENT]);
    } finally {
      await t.close();
    }
  });

  it('answers a slow-loris upload 408 with a msg once UPLOAD_TIMEOUT_SECONDS have passed, closing it and freeing its slot', async () => {
    const t = await createTestApp({ SUPPORT_MAX_CONCURRENT_UPLOADS: '1', SUPPORT_MAX_PER_USER: '100', UPLOAD_TIMEOUT_SECONDS: '1' });
    try {
      const { authorization } = await signedIn(t, 'support-slow');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const port = (t.app.server.address() as AddressInfo).port;
      // No request, upload or idle socket waits without end (Fastify's defaults are 0: for ever).
      expect([t.app.server.requestTimeout, t.app.server.timeout, t.app.server.keepAliveTimeout]).toEqual([90_000, 300_000, 72_000]);

      // A client that sends its form a few bytes at a time, a little every 100 ms: it would take minutes.
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      let answer = '';
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.on('error', () => undefined);
      socket.write(
        `POST /api/contact-support HTTP/1.1\r\nHost: x\r\nAuthorization: ${authorization}\r\nContent-Type: multipart/form-data; boundary=xyz\r\nContent-Length: 100000\r\n\r\n` +
          `--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n`,
      );
      const started = Date.now();
      const trickle = setInterval(() => socket.writable && socket.write('abc'), 100);
      try {
        await closed;
      } finally {
        clearInterval(trickle);
      }
      const elapsed = Date.now() - started;
      expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        msg: 'The upload took too long: the whole request must arrive within 1 second. Please try again on a faster connection or with a smaller file.',
      });
      expect(elapsed).toBeGreaterThanOrEqual(900);
      expect(elapsed).toBeLessThan(10_000);

      // The slot is free again: the next upload is read and sent.
      const { payload, contentType } = await multipart({ header: 'after the slow one', body: 'b' }, [{ name: 'log.txt', content: 'quick', type: 'text/plain' }]);
      const next = await fetch(`http://127.0.0.1:${port}/api/contact-support`, { method: 'POST', headers: { authorization, 'content-type': contentType }, body: payload });
      expect([next.status, await next.json()]).toEqual([200, SENT]);
    } finally {
      await t.close();
    }
  });
});
