import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Stripe-compatible API on loopback that answers the few calls the product
 * makes (Checkout Sessions, Refunds) as Stripe does: form-encoded requests,
 * JSON objects back, `Idempotency-Key` replays the first answer. It records
 * every request and can be told to fail the next ones, so tests see exactly
 * what the official SDK sent. Payments "happen" when a test says so
 * (`pay`), which returns the session as Stripe's event would carry it.
 */

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The form body, nested as Stripe's bracket notation says (`metadata[family]` → `{ metadata: { family } }`). */
  form: Record<string, unknown>;
}

export interface FakeSession {
  id: string;
  object: 'checkout.session';
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'unpaid' | 'paid';
  payment_intent: string | null;
  amount_total: number;
  currency: string;
  customer_email: string | null;
  expires_at: number;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
}

export interface FakeRefund {
  id: string;
  object: 'refund';
  amount: number;
  currency: 'gbp';
  payment_intent: string;
  status: 'pending' | 'succeeded';
  metadata: Record<string, string>;
}

export interface FakeStripe {
  /** The base URL for STRIPE_API_URL. */
  url: string;
  requests: RecordedRequest[];
  sessions: Map<string, FakeSession>;
  refunds: FakeRefund[];
  /** The next `count` requests (of `path`, when given) answer `status` with a Stripe error. */
  failNext(count: number, status?: number, path?: string): void;
  /** The candidate pays: the session becomes complete and paid, with a PaymentIntent. */
  pay(sessionId: string): FakeSession;
  close(): Promise<void>;
}

const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString('hex')}`;

/** `a[b][c]=x&l[0][d]=y` → `{ a: { b: { c: 'x' } }, l: [{ d: 'y' }] }`. */
export function parseStripeForm(body: string): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const path = name.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
}

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  const sessions = new Map<string, FakeSession>();
  const refunds: FakeRefund[] = [];
  const replays = new Map<string, { status: number; body: string }>();
  let failures: { count: number; status: number; path?: string } = { count: 0, status: 500 };

  const answer = (method: string, path: string, form: Record<string, unknown>): { status: number; body: unknown } => {
    const error = (status: number, message: string, type = 'invalid_request_error') => ({ status, body: { error: { type, message } } });
    if (method === 'POST' && path === '/v1/checkout/sessions') {
      const item = (form.line_items as Record<string, Record<string, unknown>>[] | undefined)?.[0];
      const price = item?.price_data;
      if (!price) return error(400, 'line_items[0][price_data] is required');
      const session: FakeSession = {
        id: id('cs'),
        object: 'checkout.session',
        url: '',
        status: 'open',
        payment_status: 'unpaid',
        payment_intent: null,
        amount_total: Number(price.unit_amount) * Number(item.quantity ?? 1),
        currency: String(price.currency),
        customer_email: (form.customer_email as string | undefined) ?? null,
        expires_at: Number(form.expires_at ?? Math.floor(Date.now() / 1000) + 86_400),
        metadata: (form.metadata as Record<string, string> | undefined) ?? {},
        success_url: String(form.success_url),
        cancel_url: String(form.cancel_url),
      };
      session.url = `${server.url}/pay/${session.id}`;
      sessions.set(session.id, session);
      return { status: 200, body: session };
    }
    const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === 'GET' && sessionPath) {
      const session = sessions.get(sessionPath[1]!);
      return session ? { status: 200, body: session } : error(404, `No such checkout.session: '${sessionPath[1]}'`);
    }
    if (method === 'POST' && path === '/v1/refunds') {
      const paymentIntent = typeof form.payment_intent === 'string' ? form.payment_intent : '';
      const paid = [...sessions.values()].find((s) => s.payment_intent === paymentIntent);
      if (!paid) return error(400, `No such payment_intent: '${paymentIntent}'`);
      const refunded = refunds.filter((r) => r.payment_intent === paymentIntent).reduce((sum, r) => sum + r.amount, 0);
      const amount = Number(form.amount ?? paid.amount_total - refunded);
      if (amount + refunded > paid.amount_total) return error(400, 'Refund amount is greater than the unrefunded amount');
      const refund: FakeRefund = {
        id: id('re'),
        object: 'refund',
        amount,
        currency: 'gbp',
        payment_intent: paymentIntent,
        status: 'pending',
        metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    return error(404, `Unrecognized request URL (${method}: ${path})`);
  };

  const http: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const method = req.method ?? 'GET';
      const form = parseStripeForm(method === 'GET' ? ((req.url ?? '').split('?')[1] ?? '') : raw);
      requests.push({ method, path, headers: req.headers, form });
      const send = (status: number, body: string) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
        res.end(body);
      };
      if (failures.count > 0 && (!failures.path || failures.path === path)) {
        failures.count -= 1;
        return send(failures.status, JSON.stringify({ error: { type: 'api_error', message: 'The fake was told to fail this request' } }));
      }
      const key = req.headers['idempotency-key'];
      const replayKey = typeof key === 'string' ? `${method} ${path} ${key}` : undefined;
      const replay = replayKey && replays.get(replayKey);
      if (replay) return send(replay.status, replay.body);
      const { status, body } = answer(method, path, form);
      const text = JSON.stringify(body);
      if (replayKey && status < 500) replays.set(replayKey, { status, body: text });
      send(status, text);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const server = { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}` };

  return {
    url: server.url,
    requests,
    sessions,
    refunds,
    failNext: (count, status = 500, path) => void (failures = { count, status, path }),
    pay(sessionId) {
      const session = sessions.get(sessionId);
      if (!session) throw new Error(`No session ${sessionId}`);
      Object.assign(session, { status: 'complete', payment_status: 'paid', payment_intent: session.payment_intent ?? id('pi') });
      return { ...session };
    },
    async close() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
