import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpMailer } from './smtp';
import { MailError, type Mailer } from './types';

/** A local SMTP server: `gone@` is refused for good (550), `busy@` for now (451); the rest are kept. */
let server: SMTPServer;
let mailer: Mailer;
const received: string[] = [];

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('gone@')) return callback(Object.assign(new Error('5.1.1 No such user'), { responseCode: 550 }));
      if (address.address.startsWith('busy@')) return callback(Object.assign(new Error('4.2.1 Try again later'), { responseCode: 451 }));
      return callback();
    },
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        received.push(raw);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  mailer = createSmtpMailer(`smtp://127.0.0.1:${port}?ignore_tls=true`, 'Signalboard <alerts@example.com>');
});

afterAll(async () => {
  mailer.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);

describe('SMTP mailer', () => {
  it('sends with the extra headers and answers the Message-ID', async () => {
    const { id } = await mailer.send({
      to: 'user@example.com',
      subject: 'AAPL dropped',
      text: 'AAPL −5.3%',
      headers: { 'List-Unsubscribe': '<https://x.example/u?token=a>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    });
    expect(id).toMatch(/^<.+@.+>$/);
    const raw = received.at(-1)!;
    expect(raw).toContain(`Message-ID: ${id}`);
    expect(raw).toMatch(/^List-Unsubscribe: <https:\/\/x\.example\/u\?token=a>\r?$/m);
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r?$/m);
  });

  it('reports a 5xx refusal as permanent and a 4xx one as worth another try', async () => {
    const gone = await failure(mailer.send({ to: 'gone@example.com', subject: 's', text: 't' }));
    expect(gone).toBeInstanceOf(MailError);
    expect(gone).toMatchObject({ permanent: true, responseCode: 550 });
    const busy = await failure(mailer.send({ to: 'busy@example.com', subject: 's', text: 't' }));
    expect(busy).toMatchObject({ permanent: false, responseCode: 451 });
  });

  it('reports an unreachable server as worth another try', async () => {
    const closed = createSmtpMailer('smtp://127.0.0.1:1?ignore_tls=true', 'a@example.com');
    const error = await failure(closed.send({ to: 'user@example.com', subject: 's', text: 't' }));
    closed.close();
    expect(error).toMatchObject({ permanent: false });
  });
});
