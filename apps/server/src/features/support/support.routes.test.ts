import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboxEmails } from '../../db/schema';
import { createTestApp, createUser, login, uniqueEmail, type TestApp } from '../../../test/helpers';

async function multipart(fields: Record<string, string>, file?: { name: string; content: Buffer | string; type?: string }) {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  if (file) form.append('file', new Blob([file.content], { type: file.type ?? 'text/plain' }), file.name);
  const request = new Request('http://local', { method: 'POST', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), contentType: request.headers.get('content-type')! };
}

async function send(t: TestApp, headers: { authorization: string }, fields: Record<string, string>, file?: Parameters<typeof multipart>[1]) {
  const { payload, contentType } = await multipart(fields, file);
  return t.app.inject({ method: 'POST', url: '/api/contact-support', headers: { ...headers, 'content-type': contentType }, payload });
}

describe('api/contact-support through the outbox', () => {
  let t: TestApp;
  let email: string;
  let headers: { authorization: string };
  beforeAll(async () => {
    t = await createTestApp();
    email = uniqueEmail('customer');
    await createUser(t.db, email, 'pw');
    headers = await login(t.app, email, 'pw');
  });
  afterAll(async () => t.close());

  it('mails the request with its attachment to support, reply-to the user', async () => {
    const answer = await send(t, headers, { header: 'Alerts did not fire', body: 'Nothing arrived.' }, { name: 'log.txt', content: 'evidence' });
    expect(answer.json()).toEqual({ msg: 'Support request sent successfully!' });
    const [row] = await t.db.select().from(outboxEmails).where(eq(outboxEmails.toAddress, 'support@signalboard.local'));
    expect(row).toMatchObject({ replyTo: email, subject: '[Support] Alerts did not fire', attachmentNames: ['log.txt'] });
    const eml = readFileSync(row!.emlPath, 'utf8');
    expect(eml).toContain(`Reply-To: ${email}`);
    expect(eml).toContain(Buffer.from('evidence').toString('base64'));
  });

  it('works without an attachment', async () => {
    expect((await send(t, headers, { header: 'Question', body: 'How do alerts work?' })).statusCode).toBe(200);
  });

  it('refuses missing fields, non-multipart bodies and oversized files with a msg, sending nothing', async () => {
    const before = (await t.db.select().from(outboxEmails)).length;
    expect((await send(t, headers, { body: 'no header' })).json()).toEqual({ msg: 'Header is required' });
    expect((await send(t, headers, { header: 'no body', body: '  ' })).json()).toEqual({ msg: 'Body is required' });
    const json = await t.app.inject({ method: 'POST', url: '/api/contact-support', headers, payload: { header: 'h', body: 'b' } });
    expect(json.statusCode).toBe(400);
    expect(json.json().msg).toMatch(/multipart\/form-data/);
    const big = await send(t, headers, { header: 'Big', body: 'file' }, { name: 'big.bin', content: Buffer.alloc(10 * 1024 * 1024 + 1) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ msg: 'The attachment is larger than 10 MB.' });
    expect((await t.db.select().from(outboxEmails)).length).toBe(before);
    const anonymous = await t.app.inject({ method: 'POST', url: '/api/contact-support', payload: {} });
    expect(anonymous.json()).toEqual({ msg: 'Auth token missing' });
  });
});

describe('api/contact-support through a real SMTP server on loopback', () => {
  let smtp: SMTPServer;
  let port: number;
  const received: string[] = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        let raw = '';
        stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
        stream.on('end', () => {
          received.push(raw);
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('delivers the message with reply-to and the attachment', async () => {
    const t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignore_tls=true`, SUPPORT_EMAIL: 'help@example.com' });
    try {
      const email = uniqueEmail('smtp');
      await createUser(t.db, email, 'pw');
      const answer = await send(t, await login(t.app, email, 'pw'), { header: 'Login trouble', body: 'Cannot sign in.' }, { name: 'screen.png', content: 'png-bytes', type: 'image/png' });
      expect(answer.json()).toEqual({ msg: 'Support request sent successfully!' });
      expect(received).toHaveLength(1);
      expect(received[0]).toMatch(/^To: help@example\.com/m);
      expect(received[0]).toContain(`Reply-To: ${email}`);
      expect(received[0]).toMatch(/^Subject: \[Support\] Login trouble/m);
      expect(received[0]).toContain('filename=screen.png');
    } finally {
      await t.close();
    }
  });

  it('answers 502 with a msg when the mail server is down', async () => {
    const t = await createTestApp({ SMTP_URL: 'smtp://127.0.0.1:1?ignore_tls=true' });
    try {
      const email = uniqueEmail('down');
      await createUser(t.db, email, 'pw');
      const answer = await send(t, await login(t.app, email, 'pw'), { header: 'h', body: 'b' });
      expect(answer.statusCode).toBe(502);
      expect(answer.json()).toEqual({ msg: 'The support request could not be sent: the mail service is unavailable.' });
    } finally {
      await t.close();
    }
  });
});
