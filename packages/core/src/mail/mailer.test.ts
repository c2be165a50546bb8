import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMailer, defaultFromAddress } from './mailer.js';

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'visibility-mail-'));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('createMailer', () => {
  it('writes a complete message to the outbox when no SMTP_URL is set', async () => {
    const mailer = createMailer({ smtpUrl: undefined, dataDir, from: defaultFromAddress('https://visibility.example') });
    const sent = await mailer.send({ to: 'owner@brand.example', subject: 'Your AI visibility audit', text: 'Score 62', html: '<p>Score 62</p>' });
    expect(sent.delivery).toBe('outbox');
    const files = readdirSync(join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    const parsed = await simpleParser(readFileSync(join(dataDir, 'outbox', files[0] ?? '')));
    expect(parsed.subject).toBe('Your AI visibility audit');
    expect(parsed.from?.text).toContain('no-reply@visibility.example');
    expect((parsed.to as { text: string }).text).toBe('owner@brand.example');
    expect(parsed.text?.trim()).toBe('Score 62');
    expect(parsed.html).toContain('<p>Score 62</p>');
  });

  it('delivers through SMTP when SMTP_URL is set', async () => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, _session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          received.push(Buffer.concat(chunks).toString('utf8'));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const port = (server.server.address() as { port: number }).port;
    try {
      const mailer = createMailer({ smtpUrl: `smtp://127.0.0.1:${port}`, dataDir, from: 'AI Visibility <no-reply@visibility.test>' });
      const sent = await mailer.send({ to: 'owner@brand.example', subject: 'Hello', text: 'Body' });
      expect(sent.delivery).toBe('smtp');
      expect(received).toHaveLength(1);
      const parsed = await simpleParser(received[0] ?? '');
      expect(parsed.subject).toBe('Hello');
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
