import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboxMailer } from '../../adapters/mailer/OutboxMailer.ts';
import { SmtpMailer } from '../../adapters/mailer/SmtpMailer.ts';
import { action as signupAction } from '#app/routes/api+/auth.signup.ts';
import { jsonRequest, run } from '../setup/http.ts';
import { createTestApp } from '../setup/test-root.ts';

/** A real SMTP server on loopback that keeps what it receives (STARTTLS off: its built-in certificate has expired). */
function startSmtp() {
  const received: Array<{ from: string; to: string[]; mail: ParsedMail }> = [];
  const auths: Array<{ user?: string; pass?: string }> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    disableReverseLookup: true,
    authOptional: true,
    onAuth(auth, _session, cb) {
      auths.push({ user: auth.username ?? undefined, pass: auth.password ?? undefined });
      cb(null, { user: auth.username });
    },
    onData(stream, session, cb) {
      simpleParser(stream)
        .then((mail) => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            mail,
          });
          cb();
        })
        .catch(cb);
    },
  });
  return new Promise<{ port: number; received: typeof received; auths: typeof auths; close: () => Promise<void> }>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : 0,
        received,
        auths,
        close: () => new Promise<void>((r) => server.close(() => r())),
      });
    });
  });
}

let smtp: Awaited<ReturnType<typeof startSmtp>>;
beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(async () => {
  await smtp?.close();
});

describe('SmtpMailer', () => {
  it('delivers text and HTML to a real SMTP server, with credentials from the URL', async () => {
    const mailer = new SmtpMailer({ url: `smtp://mailer:s3cret@127.0.0.1:${smtp.port}?starttls=false`, from: 'RewardLoop <no-reply@rewardloop.test>' });
    await mailer.send({ to: 'owner@example.com', subject: 'Hello', text: 'Plain body', html: '<p>HTML body</p>' });
    await mailer.close();
    const got = smtp.received.at(-1)!;
    expect(got.to).toEqual(['owner@example.com']);
    expect(got.from).toBe('no-reply@rewardloop.test');
    expect(got.mail.subject).toBe('Hello');
    expect(got.mail.text?.trim()).toBe('Plain body');
    expect(got.mail.html).toContain('<p>HTML body</p>');
    expect(smtp.auths.at(-1)).toEqual({ user: 'mailer', pass: 's3cret' });
  });

  it('fails loudly when the server is down', async () => {
    const mailer = new SmtpMailer({ url: 'smtp://127.0.0.1:1?starttls=false', from: 'x@y.z', connectionTimeoutMs: 2000 });
    await expect(mailer.send({ to: 'a@b.c', subject: 's', text: 't', html: 'h' })).rejects.toThrow();
  });

  it('carries the signup verification email end to end when SMTP_URL is set', async () => {
    const app = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${smtp.port}?starttls=false`, MAIL_FROM: 'RewardLoop <hello@rewardloop.test>' });
    try {
      expect(app.root.mailer.id).toBe('smtp');
      const res = await run(() =>
        signupAction({
          request: jsonRequest('/api/auth/signup', { email: 'smtp-owner@example.com', password: 'sesame-street-42', confirmPassword: 'sesame-street-42', displayName: 'Bean There', terms: true }),
          context: app.context(),
          params: {},
        }),
      );
      expect(res.status).toBe(201);
      const got = smtp.received.find((r) => r.to.includes('smtp-owner@example.com'))!;
      expect(got.mail.subject).toBe('Confirm your RewardLoop email address');
      expect(got.mail.text).toMatch(/http:\/\/localhost:3000\/email-verified\/[\w-]{40,}/);
      expect(got.mail.html).toContain('Hello Bean There');
    } finally {
      await app.close();
    }
  });
});

describe('OutboxMailer', () => {
  it('writes .eml files that parse back, newest first, and refuses other file names', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'outbox-'));
    const outbox = new OutboxMailer({ dir, from: 'RewardLoop <no-reply@rewardloop.test>' });
    await outbox.send({ to: 'first@example.com', subject: 'First', text: 'one', html: '<p>one</p>' });
    await outbox.send({ to: 'second@example.com', subject: 'Second', text: 'two', html: '<p>two</p>' });
    const list = await outbox.list();
    expect(list.map((e) => e.subject)).toEqual(['Second', 'First']);
    const parsed = await simpleParser((await outbox.read(list[0]!.file))!);
    expect(parsed.text?.trim()).toBe('two');
    expect(await outbox.read('../../etc/passwd')).toBeNull();
  });
});
