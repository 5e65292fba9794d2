import { SendEmailCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SesSendError, sesMailer } from '../../functions/core/messaging/mailer.js';

/**
 * The e-mail sender calls SES v2 by one signed POST instead of the SES
 * client. The client itself is the reference: for the same message, the
 * request it makes and the one the sender makes agree in path, body and
 * credential scope.
 */

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

const credentials = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };
const from = 'Agency API <no-reply@agency-api.local>';

async function withSes(status: number, run: (endpoint: string, seen: Seen[]) => Promise<void>) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res
        .writeHead(status, { 'content-type': 'application/json' })
        .end(status === 200 ? '{"MessageId":"m-1"}' : '{"message":"Email address is not verified."}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

const scopeOf = (authorization: string | undefined) =>
  /Credential=([^,]+)/
    .exec(authorization ?? '')?.[1]
    ?.split('/')
    .slice(2)
    .join('/');

it.each([
  ['plain text', {}],
  [
    'with an .ics attachment (raw MIME)',
    { attachments: [{ filename: 'invitation.ics', content_type: 'text/calendar; method=REQUEST', content: 'BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n' }] },
  ],
])('sends what the SES v2 client sends for the same message: %s', async (_case, extra) => {
  await withSes(200, async (endpoint, seen) => {
    const message = {
      id: 'eml_1',
      to: 'eve@example.org',
      subject: 'Your booking',
      template: 'booking-confirmed',
      text: 'Dear Eve,\n\nSee you there.',
      ...extra,
    };
    await sesMailer(from, { endpoint, region: 'eu-west-2' }, async () => credentials).send(message);
    const ours = seen[0]!;
    const body = JSON.parse(ours.body);
    // The client, given the same input (a raw message as its bytes), is the reference.
    const input = body.Content.Raw ? { ...body, Content: { Raw: { Data: Buffer.from(body.Content.Raw.Data, 'base64') } } } : body;
    await new SESv2Client({ endpoint, region: 'eu-west-2', credentials }).send(new SendEmailCommand(input));
    const theirs = seen[1]!;
    expect([ours.method, ours.url]).toEqual([theirs.method, theirs.url]);
    expect(ours.url).toBe('/v2/email/outbound-emails');
    expect(body).toEqual(JSON.parse(theirs.body));
    expect(ours.headers['content-type']).toBe(theirs.headers['content-type']);
    expect(scopeOf(ours.headers.authorization)).toBe('eu-west-2/ses/aws4_request');
    expect(scopeOf(ours.headers.authorization)).toBe(scopeOf(theirs.headers.authorization));
    expect(ours.headers.authorization).toMatch(/SignedHeaders=content-type;host;x-amz-content-sha256;x-amz-date/);
    if (body.Content.Raw)
      expect(Buffer.from(body.Content.Raw.Data, 'base64').toString('utf8')).toContain('Content-Disposition: attachment; filename="invitation.ics"');
    else expect(body.Content.Simple).toEqual({ Subject: { Data: 'Your booking' }, Body: { Text: { Data: 'Dear Eve,\n\nSee you there.' } } });
  });
});

it('throws when SES refuses, so the queue tries the message again', async () => {
  await withSes(400, async (endpoint) => {
    const send = sesMailer(from, { endpoint, region: 'eu-west-2' }, async () => credentials).send({
      id: 'eml_2',
      to: 'eve@example.org',
      subject: 'S',
      template: 't',
      text: 'x',
    });
    await expect(send).rejects.toThrow(SesSendError);
    await expect(send).rejects.toThrow(/answered 400: .*not verified/);
  });
});
