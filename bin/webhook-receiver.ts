#!/usr/bin/env node
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { verify } from '../functions/core/webhooks/signing.js';

/**
 * `npm run webhook-receiver -- --port 4000 --secret whsec_…`: a webhook
 * endpoint to point the API at while trying it. It prints each delivery and
 * whether its signature verifies with the endpoint's secret (the project's own
 * verification code), and answers 200 when it does (401 when it does not).
 */

const TOLERANCE_SECONDS = 300;

let options: { port: number; secret?: string };
try {
  const { values } = parseArgs({
    options: { port: { type: 'string', default: process.env.PORT ?? '4000' }, secret: { type: 'string', default: process.env.WEBHOOK_SECRET } },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port ${values.port} is not a port number`);
  if (values.secret !== undefined && !values.secret.startsWith('whsec_')) throw new Error("--secret is the endpoint's signing secret, whsec_…");
  options = { port, secret: values.secret };
} catch (err) {
  console.error(`${(err as Error).message.split('. To specify')[0]} (usage: npm run webhook-receiver -- [--port 4000] [--secret whsec_…], or WEBHOOK_SECRET)`);
  process.exit(2);
}

function check(headers: Record<string, string | string[] | undefined>, body: string): { ok: boolean; says: string } {
  if (!options.secret) return { ok: true, says: 'signature not checked (no --secret)' };
  const [id, timestamp, signature] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) => headers[h]);
  if (typeof id !== 'string' || typeof timestamp !== 'string' || typeof signature !== 'string') return { ok: false, says: 'signature missing ✘' };
  if (Math.abs(Date.now() / 1000 - Number(timestamp)) > TOLERANCE_SECONDS) return { ok: false, says: 'timestamp too old or too new ✘' };
  return verify(options.secret, { id, timestamp, signature }, body)
    ? { ok: true, says: 'signature verified ✔' }
    : { ok: false, says: 'signature does NOT verify ✘' };
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = Buffer.concat(chunks).toString('utf8');
    const { ok, says } = check(req.headers, body);
    let type = '?';
    try {
      type = String((JSON.parse(body) as { type?: unknown }).type);
    } catch {
      /* not JSON: shown as it came */
    }
    console.log(`[receiver] ${new Date().toISOString()} ${req.method} ${req.url} ${type} webhook-id=${String(req.headers['webhook-id'] ?? '-')}: ${says}`);
    console.log(`[receiver] ${body}`);
    res.writeHead(ok ? 200 : 401, { 'content-type': 'text/plain' }).end(ok ? 'ok' : 'signature refused');
  });
});
server.on('error', (err) => {
  console.error(`[receiver] ${err.message}`);
  process.exit(1);
});
server.listen(options.port, '127.0.0.1', () => {
  console.log(
    `[receiver] listening on http://127.0.0.1:${options.port}/ (${options.secret ? 'checking signatures' : 'not checking signatures: give --secret'}); Ctrl-C stops it`,
  );
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
