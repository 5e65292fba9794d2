import { Agent, request } from 'node:http';

/**
 * How the benchmark measures: loops at a fixed concurrency for a time,
 * two workloads in alternating slices (so a machine whose speed drifts slows
 * both alike), percentiles, and a JSON client for the local stack.
 */

export const percentiles = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) => Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 10) / 10;
  return { count: sorted.length, p50: at(50), p95: at(95), p99: at(99) };
};
export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const round = (x: number) => Math.round(x * 100) / 100;

export type Work = (worker: number) => Promise<void>;

/** Runs `work` in `concurrency` loops for `seconds`; the iterations completed and the time taken. */
export async function run(work: Work, seconds: number, concurrency: number): Promise<{ done: number; seconds: number }> {
  const deadline = Date.now() + seconds * 1000;
  let done = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (Date.now() < deadline) {
        await work(worker);
        done++;
      }
    }),
  );
  return { done, seconds: (Date.now() - started) / 1000 };
}

/** Iterations per second. */
export async function throughput(work: Work, seconds: number, concurrency: number): Promise<number> {
  const { done, seconds: took } = await run(work, seconds, concurrency);
  return done / took;
}

/** Two workloads in alternating slices over 2 × `seconds` in all; each one's iterations per second. */
export async function alternating(a: Work, b: Work, seconds: number, concurrency: number, slices = 4) {
  const totals = { a: { done: 0, seconds: 0 }, b: { done: 0, seconds: 0 } };
  for (let i = 0; i < slices; i++) {
    for (const [key, work] of [
      ['a', a],
      ['b', b],
    ] as const) {
      const slice = await run(work, seconds / slices, concurrency);
      totals[key].done += slice.done;
      totals[key].seconds += slice.seconds;
    }
  }
  return { a: totals.a.done / totals.a.seconds, b: totals.b.done / totals.b.seconds };
}

/**
 * One request to the local stack, its JSON body back (an error for 4xx and 5xx). On `node:http` with
 * kept-alive connections rather than `fetch`: the client's own work counts in an HTTP workload's
 * rate, and in a CPU profile of the hold cycle undici's fetch took about two and a half times
 * the CPU of a plain request (10 % of the process against 4 %).
 */
export function json(url: string, init: { method?: string; token?: string; body?: unknown } = {}): Promise<any> {
  const method = init.method ?? (init.body ? 'POST' : 'GET');
  const body = init.body ? JSON.stringify(init.body) : undefined;
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      agent: keptAlive,
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(body ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } : {}),
      },
    });
    req.on('error', reject);
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('error', reject);
      response.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        if ((response.statusCode ?? 500) >= 400) return reject(new Error(`${method} ${url}: ${response.statusCode} ${text}`));
        try {
          resolve(text ? JSON.parse(text) : undefined);
        } catch (err) {
          reject(err instanceof Error ? err : new Error(String(err)));
        }
      });
    });
    req.end(body);
  });
}
const keptAlive = new Agent({ keepAlive: true, maxSockets: 64 });

export async function timed<T>(samples: number[], work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  samples.push(performance.now() - started);
  return result;
}
