import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually } from './eventually.js';

/** A real webhook receiver on loopback that records what arrives and answers as the test scripts it. */

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers for the next requests, in order; after them, 200. */
  script(...answers: Answer[]): void;
  /** At least `count` requests have arrived; fails after the timeout. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let answers: Answer[] = [];
  const hanging = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '/', headers: req.headers, body, at: Date.now() });
      const answer = answers.shift() ?? { status: 200, body: 'ok' };
      if (answer === 'hang') {
        hanging.add(() => res.destroy());
        return;
      }
      res.writeHead(answer.status, answer.headers);
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    script: (...next) => void (answers = next),
    async waitFor(count, timeoutMs = 20_000) {
      await eventually(() => received.length >= count, { timeoutMs, what: `${count} requests at the receiver` });
      return received;
    },
    async close() {
      for (const end of hanging) end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
