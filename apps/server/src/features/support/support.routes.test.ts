import { existsSync, readdirSync, readFileSync } from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';
import type { InjectOptions } from 'fastify';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

const SENT = { msg: 'Support request sent successfully!' };
const MAIL_DOWN = { msg: 'The support request could not be sent: the mail service is unavailable.' };
type Headers = { authorization: string };
/** The PNG signature and the start of an IHDR chunk: an image by its bytes. */
const PNG_BYTES = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52]);
type Attachment = { name: string; content: Buffer | string; type?: string };

/** A multipart body as the browser's FormData would send it. */
async function multipart(fields: Record<string, string>, files: Array<Attachment & { field?: string }> = []) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const file of files) form.append(file.field ?? 'file', new Blob([file.content], { type: file.type ?? 'text/plain' }), file.name);
  const response = new Response(form);
  return { payload: Buffer.from(await response.arrayBuffer()), contentType: response.headers.get('content-type')! };
}

async function post(t: TestApp, headers: Partial<Headers> & Record<string, string>, payload?: InjectOptions['payload']) {
  const response = await t.app.inject({ method: 'POST', url: '/api/contact-support', headers, payload });
  expect(response.statusCode, `answered 500: ${response.body}`).not.toBe(500);
  return response;
}

async function send(t: TestApp, headers: Headers, fields: Record<string, string>, ...files: Attachment[]) {
  const { payload, contentType } = await multipart(fields, files);
  return post(t, { ...headers, 'content-type': contentType }, payload);
}

async function signedIn(t: TestApp, label: string): Promise<{ email: string; headers: Headers }> {
  const email = uniqueEmail(label);
  await createUser(t.db, email, 'pw');
  return { email, headers: await login(t.app, email, 'pw') };
}

describe('api/contact-support through the outbox', () => {
  let t: TestApp;
  let email: string;
  let headers: Headers;
  const sentCount = async () => (await t.db.select().from(outboxEmails)).length;
  beforeAll(async () => {
    // Many requests of one user here; the per-user limit is support.limits.test.ts's.
    t = await createTestApp({ SUPPORT_MAX_PER_USER: '100' });
    ({ email, headers } = await signedIn(t, 'customer'));
  });
  afterAll(async () => t.close());

  it('mails the request with its attachment to SUPPORT_EMAIL, reply-to the user', async () => {
    const before = await sentCount();
    const answer = await send(t, headers, { header: ' Alerts did not fire ', body: 'Nothing arrived.' }, { name: 'log.txt', content: 'evidence of the problem' });
    expect([answer.statusCode, answer.json()]).toEqual([200, SENT]);
    const rows = await t.db.select().from(outboxEmails);
    expect(rows).toHaveLength(before + 1);
    const row = rows.at(-1)!;
    expect(row).toMatchObject({ toAddress: t.config.SUPPORT_EMAIL, replyTo: email, subject: '[Support] Alerts did not fire', attachmentNames: ['log.txt'] });
    expect(t.config.SUPPORT_EMAIL).toBe('support@signalboard.local');
    expect(row.subject).toContain('Alerts did not fire');
    expect(row.textBody).toContain('Nothing arrived.');
    expect(row.textBody).toContain(email);
    expect(path.dirname(row.emlPath)).toBe(path.join(t.dataDir, 'outbox'));
    const eml = readFileSync(row.emlPath, 'utf8');
    expect(eml).toMatch(/^To: support@signalboard\.local$/m);
    expect(eml).toContain(`Reply-To: ${email}`);
    expect(eml).toContain('filename=log.txt');
    expect(eml).toContain(Buffer.from('evidence of the problem').toString('base64'));
  });

  it('works without an attachment', async () => {
    const answer = await send(t, headers, { header: 'Question', body: 'How do alerts work?' });
    expect([answer.statusCode, answer.json()]).toEqual([200, SENT]);
    const row = (await t.db.select().from(outboxEmails)).at(-1)!;
    expect(row).toMatchObject({ subject: '[Support] Question', attachmentNames: [], replyTo: email });
    expect(readFileSync(row.emlPath, 'utf8')).not.toContain('Content-Disposition: attachment');
  });

  it('refuses a header with a line break (it could add mail headers), sending nothing', async () => {
    const before = await sentCount();
    const answer = await send(t, headers, { header: 'Hi\r\nBcc: victim@example.com', body: 'b' });
    expect([answer.statusCode, answer.json()]).toEqual([400, { msg: 'Header must not contain line breaks or other control characters' }]);
    expect(await sentCount()).toBe(before);
  });

  it('refuses control characters in the header, body or file name with 400 and a msg naming it, sending nothing', async () => {
    const before = await sentCount();
    const outboxFiles = () => (existsSync(path.join(t.dataDir, 'outbox')) ? readdirSync(path.join(t.dataDir, 'outbox')).length : 0);
    const filesBefore = outboxFiles();
    const cases: Array<[Record<string, string>, Attachment | undefined, string]> = [
      [{ header: 'Help\u0000', body: 'b' }, undefined, 'Header must not contain line breaks or other control characters'],
      [{ header: 'Help', body: 'b\u0000' }, undefined, 'Body must not contain control characters other than tabs and line breaks'],
      [{ header: 'Help', body: 'escape \u001b[2J' }, undefined, 'Body must not contain control characters other than tabs and line breaks'],
      [{ header: 'Help', body: 'b' }, { name: 'log\u0000.txt', content: 'x' }, 'File name must not contain line breaks or other control characters'],
      [{ header: 'Help', body: 'b' }, { name: 'log\u007f.txt', content: 'x' }, 'File name must not contain line breaks or other control characters'],
    ];
    for (const [fields, file, msg] of cases) {
      const answer = file ? await send(t, headers, fields, file) : await send(t, headers, fields);
      expect([answer.statusCode, answer.json()], JSON.stringify([fields, file?.name])).toEqual([400, { msg }]);
    }
    expect([await sentCount(), outboxFiles()]).toEqual([before, filesBefore]);
  });

  it('keeps tabs and line breaks in the body, and trims the header', async () => {
    const answer = await send(t, headers, { header: '\tSteps to reproduce ', body: 'Step 1:\topen\r\nStep 2:\tclose' });
    expect([answer.statusCode, answer.json()]).toEqual([200, SENT]);
    const row = (await t.db.select().from(outboxEmails)).at(-1)!;
    expect(row.subject).toBe('[Support] Steps to reproduce');
    expect(row.textBody).toContain('Step 1:\topen\r\nStep 2:\tclose');
  });

  it('refuses a missing header or body with 400 and a msg, sending nothing', async () => {
    const before = await sentCount();
    const cases: Array<[Record<string, string>, string]> = [
      [{ body: 'no header' }, 'Header is required'],
      [{ header: '  ', body: 'blank header' }, 'Header is required'],
      [{ header: 'no body' }, 'Body is required'],
      [{ header: 'blank body', body: ' \n ' }, 'Body is required'],
      [{ header: 'h'.repeat(201), body: 'b' }, 'Header must be at most 200 characters'],
    ];
    for (const [fields, msg] of cases) {
      const answer = await send(t, headers, fields);
      expect([answer.statusCode, answer.json()], JSON.stringify(fields)).toEqual([400, { msg }]);
    }
    expect(await sentCount()).toBe(before);
  });

  it('refuses a JSON or urlencoded body with 400 and a msg', async () => {
    const json = await post(t, headers, { header: 'h', body: 'b' });
    expect([json.statusCode, json.json()]).toEqual([400, { msg: 'Send the support request as multipart/form-data with header and body fields.' }]);
    const form = await post(t, { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, 'header=h&body=b');
    expect([form.statusCode, form.json().msg]).toEqual([400, 'Send the support request as multipart/form-data with header and body fields.']);
  });

  it('refuses an attachment over 10 MB, or a second file, with 413 and a msg, sending nothing', async () => {
    const before = await sentCount();
    const big = await send(t, headers, { header: 'Big', body: 'file' }, { name: 'big.bin', content: Buffer.alloc(10 * 1024 * 1024 + 1) });
    expect([big.statusCode, big.json()]).toEqual([413, { msg: 'The attachment is larger than 10 MB.' }]);
    const two = await send(t, headers, { header: 'Two', body: 'files' }, { name: 'a.txt', content: 'a' }, { name: 'b.txt', content: 'b' });
    expect([two.statusCode, two.json()]).toEqual([413, { msg: 'Attach at most one file.' }]);
    expect(await sentCount()).toBe(before);
  });

  it('accepts an attachment of exactly 10 MB', async () => {
    const answer = await send(t, headers, { header: 'Exactly', body: 'at the limit' }, { name: 'limit.bin', content: Buffer.alloc(10 * 1024 * 1024, 1) });
    expect([answer.statusCode, answer.json()]).toEqual([200, SENT]);
    expect((await t.db.select().from(outboxEmails)).at(-1)!.attachmentNames).toEqual(['limit.bin']);
  });

  it('answers 401 "Auth token missing" without a token, sending nothing', async () => {
    const before = await sentCount();
    const { payload, contentType } = await multipart({ header: 'h', body: 'b' });
    const anonymous = await post(t, { 'content-type': contentType }, payload);
    expect([anonymous.statusCode, anonymous.json()]).toEqual([401, { msg: 'Auth token missing' }]);
    expect(await sentCount()).toBe(before);
  });

  // busboy's parse errors carry no status; readMultipart turns them into 400s.
  it('answers malformed multipart bodies with 400 and a msg, never 500', async () => {
    const bodies: Array<[string, string]> = [
      ['multipart/form-data; boundary=xyz', 'garbage'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="header"\r\n\r\ntruncated'],
      ['multipart/form-data', 'no boundary'],
    ];
    const answers = [];
    for (const [contentType, payload] of bodies) {
      const answer = await t.app.inject({ method: 'POST', url: '/api/contact-support', headers: { ...headers, 'content-type': contentType }, payload });
      answers.push({ contentType, payload, status: answer.statusCode, msg: answer.json<{ msg?: unknown }>().msg });
    }
    expect(answers).toEqual(bodies.map(([contentType, payload]) => ({ contentType, payload, status: 400, msg: expect.any(String) })));
  });
});

describe('api/contact-support through a real SMTP server on loopback', () => {
  const received: Array<{ raw: string; from: string | undefined; to: string[] }> = [];
  const servers: SMTPServer[] = [];
  async function startSmtp(options: SMTPServerOptions): Promise<number> {
    const server = new SMTPServer({ authOptional: true, disabledCommands: ['STARTTLS'], logger: false, ...options });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return (server.server.address() as AddressInfo).port;
  }
  afterAll(async () => {
    await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  });

  it('delivers the message to the support address with reply-to, subject and attachment', async () => {
    const port = await startSmtp({
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const from = session.envelope.mailFrom === false ? undefined : session.envelope.mailFrom.address;
          received.push({ raw: Buffer.concat(chunks).toString(), from, to: session.envelope.rcptTo.map((r) => r.address) });
          callback();
        });
      },
    });
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignore_tls=true`, SUPPORT_EMAIL: 'help@example.com' });
    try {
      expect(t.mailer.kind).toBe('smtp');
      const { email, headers } = await signedIn(t, 'smtp');
      const answer = await send(t, headers, { header: 'Login trouble', body: 'Cannot sign in.' }, { name: 'screen.png', content: PNG_BYTES, type: 'image/png' });
      expect([answer.statusCode, answer.json()]).toEqual([200, SENT]);
      expect(received).toHaveLength(1);
      const [message] = received;
      expect(message!.to).toEqual(['help@example.com']);
      expect(message!.from).toBe('no-reply@signalboard.local');
      expect(message!.raw).toMatch(/^To: help@example\.com\r?$/m);
      expect(message!.raw).toContain(`Reply-To: ${email}`);
      expect(message!.raw).toMatch(/^Subject: \[Support\] Login trouble\r?$/m);
      expect(message!.raw).toContain('filename=screen.png');
      expect(message!.raw).toContain('Content-Type: image/png');
      expect(message!.raw).toContain(PNG_BYTES.toString('base64'));
      expect(message!.raw).toContain('Cannot sign in.');
      expect(await t.db.select().from(outboxEmails)).toHaveLength(0);
    } finally {
      await t.close();
    }
  });

  it('answers 502 with a msg, never 500, when the mail server is down', async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignore_tls=true` });
    try {
      const { headers } = await signedIn(t, 'down');
      const answer = await send(t, headers, { header: 'h', body: 'b' });
      expect([answer.statusCode, answer.json()]).toEqual([502, MAIL_DOWN]);
    } finally {
      await t.close();
    }
  });

  it('answers 502 with a msg when the mail server refuses the recipient', async () => {
    const port = await startSmtp({
      onRcptTo(_address, _session, callback) {
        callback(Object.assign(new Error('No such mailbox'), { responseCode: 550 }));
      },
    });
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignore_tls=true` });
    try {
      const { headers } = await signedIn(t, 'refused');
      const answer = await send(t, headers, { header: 'h', body: 'b' });
      expect([answer.statusCode, answer.json()]).toEqual([502, MAIL_DOWN]);
    } finally {
      await t.close();
    }
  });
});
