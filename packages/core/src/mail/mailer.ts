import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';

/** One message to send; the text part is always there, the HTML part is optional. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export interface SentMail {
  /** Where it went: "smtp" or the outbox file path. */
  delivery: 'smtp' | 'outbox';
  messageId: string;
  outboxPath?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<SentMail>;
}

export interface MailerOptions {
  /** SMTP_URL; without it each message is written to DATA_DIR/outbox as an .eml file. */
  smtpUrl: string | undefined;
  dataDir: string;
  /** The From address (default "AI Visibility <no-reply@HOST of BASE_URL>"). */
  from: string;
}

/** Sends mail by SMTP, or writes it to the outbox as a complete RFC 5322 message when no SMTP is set. */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl !== undefined) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        const info = await transport.sendMail({ from: options.from, ...message });
        return { delivery: 'smtp', messageId: String(info.messageId) };
      },
    };
  }
  const outbox = join(resolve(options.dataDir), 'outbox');
  // streamTransport with buffer renders the exact message SMTP would carry, so the outbox is faithful.
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      mkdirSync(outbox, { recursive: true, mode: 0o700 });
      const outboxPath = join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`);
      writeFileSync(outboxPath, info.message as Buffer, { mode: 0o600 });
      return { delivery: 'outbox', messageId: String(info.messageId), outboxPath };
    },
  };
}

/** The default sender for a deployment at BASE_URL. */
export function defaultFromAddress(baseUrl: string): string {
  let host = 'localhost';
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    // BASE_URL is validated at start; keep the fallback for safety.
  }
  return `AI Visibility <no-reply@${host}>`;
}
