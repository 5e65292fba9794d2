import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileMailer } from '../../functions/core/messaging/mailer.js';
import { attachmentsOf, textOf } from '../support/mail.js';

/** The e-mail writer's own defence: whatever reaches it, no header value spans lines. */

it('writes no header line that a line break in a value would have started', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailbox-'));
  await fileMailer(dir, 'Agency API <no-reply@agency-api.local>').send({
    id: 'eml_test',
    to: 'referee@example.org\r\nBcc: spy@evil.example',
    subject: 'Reference request for Eve\r\nBcc: x@evil.example\nX-Injected: 1\r\rEnd',
    template: 'referee-invitation',
    text: 'Dear Referee,\n\nLine two of the body stays as it is.',
  });
  const [file] = readdirSync(dir);
  const mail = readFileSync(join(dir, file!), 'utf8');
  const [head, body] = [mail.slice(0, mail.indexOf('\n\n')), mail.slice(mail.indexOf('\n\n') + 2)];
  expect(head.split('\n').map((line) => line.split(':')[0])).toEqual(['Message-ID', 'Date', 'From', 'To', 'Subject', 'X-Template', 'Content-Type']);
  expect(head).toContain('To: referee@example.org Bcc: spy@evil.example\n');
  expect(head).toContain('Subject: Reference request for Eve Bcc: x@evil.example X-Injected: 1 End\n');
  expect(head.endsWith('Content-Type: text/plain; charset=utf-8')).toBe(true);
  expect(body).toBe('Dear Referee,\n\nLine two of the body stays as it is.\n');
});

it('sends an attachment as a mail client reads it: multipart, the .ics with its CRLF line ends intact', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mailbox-'));
  const ics = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n';
  await fileMailer(dir, 'Agency API <no-reply@agency-api.local>').send({
    id: 'eml_ics',
    to: 'ada@example.org',
    subject: 'Confirmed',
    template: 'booking-confirmed',
    text: 'Dear Ada,\n\nSee you then.',
    attachments: [{ filename: 'invitation.ics', content_type: 'text/calendar; charset=utf-8; method=REQUEST', content: ics }],
  });
  const mail = readFileSync(join(dir, readdirSync(dir)[0]!), 'utf8');
  expect(mail).toContain('To: ada@example.org\n');
  expect(mail).toMatch(/^MIME-Version: 1\.0$/m);
  expect(textOf(mail)).toBe('Dear Ada,\n\nSee you then.');
  expect(attachmentsOf(mail)).toEqual([{ filename: 'invitation.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST', content: ics }]);
});
