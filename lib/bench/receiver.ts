import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { signatureHeader } from '../../functions/core/webhooks/signing.js';

/** The benchmark's webhook receiver: counts what arrives, and waits for a number of arrivals. */
export async function startReceiver() {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    reset: () => void (received = 0),
    /** Events a second from `started` until `events` have arrived since the reset; at most 3 minutes. */
    async rateOf(events: number, started: number, what: string): Promise<number> {
      while (received < events && Date.now() - started < 180_000) await new Promise((r) => setTimeout(r, 20));
      if (received < events) throw new Error(`Only ${received} of ${events} events arrived ${what} in 3 minutes`);
      return events / ((Date.now() - started) / 1000);
    },
    close: () => server.close(),
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** One webhook POST, signed as delivery signs it, with nothing else: the bare measures' unit of work. */
export async function postSigned(url: string, secret: string, id: string, body: string): Promise<void> {
  const ts = Math.floor(Date.now() / 1000);
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(ts),
      'webhook-signature': signatureHeader([secret], id, ts, body),
    },
    body,
  });
  await response.text();
}
