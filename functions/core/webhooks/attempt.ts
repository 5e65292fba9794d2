import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { DomainError } from '../platform/errors.js';
import type { DomainEvent } from '../events/outbox.js';
import { signatureHeader } from './signing.js';
import { vetWebhookUrl, type UrlPolicy } from './url-guard.js';
import { signingSecrets, type EndpointItem } from './endpoints.js';

/**
 * One webhook POST: signed, to an address vetted just before connecting.
 * `webhook-id` is the event id on every attempt, so receivers can
 * de-duplicate what at-least-once delivery may repeat.
 */

const EXCERPT_BYTES = 2048;

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  error: string | null;
  durationMs: number;
  excerpt: string;
  retryAfterSeconds?: number;
}

function retryAfterOf(response: IncomingMessage, now: Date): number | undefined {
  const value = response.headers['retry-after'];
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.round((at - now.getTime()) / 1000));
}

/**
 * One signed POST to the endpoint, at an address vetted just now. Redirects
 * are failures and are not followed. The endpoint's timeout_seconds covers
 * the whole attempt, vetting included; `budgetSeconds`, when shorter, ends it
 * sooner (the fast lane's budget), as a failure that says so.
 */
export async function attemptDelivery(
  endpoint: EndpointItem,
  event: DomainEvent,
  now: Date,
  policy: UrlPolicy,
  budgetSeconds = Infinity,
): Promise<AttemptResult> {
  const started = Date.now();
  const body = JSON.stringify({ type: event.type, timestamp: event.timestamp, data: event.data });
  const timestamp = Math.floor(now.getTime() / 1000);
  const overBudget = budgetSeconds < endpoint.timeout_seconds;
  const limitSeconds = overBudget ? budgetSeconds : endpoint.timeout_seconds;
  const timedOut = overBudget ? `no answer within ${budgetSeconds} s, the fast lane's budget` : `timed out after ${endpoint.timeout_seconds} s`;
  return new Promise<AttemptResult>((resolve) => {
    let settled = false;
    let req: ClientRequest | undefined;
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: Date.now() - started });
    };
    const timer = setTimeout(() => {
      req?.destroy();
      finish({ ok: false, status: null, error: timedOut, excerpt: '' });
    }, limitSeconds * 1000);
    vetWebhookUrl(endpoint.url, policy).then(
      (vetted) => {
        if (settled) return;
        try {
          req = post(vetted, endpoint, event, now, timestamp, body, finish);
        } catch (err) {
          finish({ ok: false, status: null, error: String(err), excerpt: '' });
        }
      },
      (err) => finish({ ok: false, status: null, error: err instanceof DomainError ? `refused: ${err.message}` : String(err), excerpt: '' }),
    );
  });
}

/** The POST itself, to the vetted address; `finish` is called once with what became of it (later calls are ignored). */
function post(
  vetted: Awaited<ReturnType<typeof vetWebhookUrl>>,
  endpoint: EndpointItem,
  event: DomainEvent,
  now: Date,
  timestamp: number,
  body: string,
  finish: (result: Omit<AttemptResult, 'durationMs'>) => void,
): ClientRequest {
  const target = vetted.addresses[0]!;
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'AgencyAPI-Webhooks/1.0',
    'webhook-id': event.id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signatureHeader(signingSecrets(endpoint, now), event.id, timestamp, body),
  };
  const send = vetted.url.protocol === 'https:' ? httpsRequest : httpRequest;
  const req = send(vetted.url, {
    method: 'POST',
    headers: { ...headers, 'content-length': Buffer.byteLength(body) },
    // Connect to the address we vetted, whatever DNS says by now.
    lookup: (_host, options, callback) => {
      const cb = callback as (...args: unknown[]) => void;
      if ((options as { all?: boolean }).all) cb(null, [{ address: target.address, family: target.family }]);
      else cb(null, target.address, target.family);
    },
  });
  req.on('response', (response) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      const status = response.statusCode ?? 0;
      const ok = status >= 200 && status < 300;
      finish({
        ok,
        status,
        error: ok ? null : status >= 300 && status < 400 ? `redirect to ${response.headers.location ?? '?'} not followed` : `HTTP ${status}`,
        excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8'),
        retryAfterSeconds: retryAfterOf(response, now),
      });
      response.destroy();
    };
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= EXCERPT_BYTES) done(); // enough to log; do not read a large body
    });
    response.on('end', done);
    response.on('error', done);
  });
  req.on('error', (err) => finish({ ok: false, status: null, error: err.message, excerpt: '' }));
  req.end(body);
  return req;
}
