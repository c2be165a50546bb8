export { createMailer, defaultFromAddress } from './mailer.js';
export type { Mailer, MailerOptions, MailMessage, SentMail } from './mailer.js';
