import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { queueUrlEnv } from '../../functions/core/platform/config.js';
import { esbuildOptions } from '../bundling.js';
import { QUEUES, SCHEDULES } from '../queues.js';
import { handlerEntry, PROJECT_ROOT, ROUTES } from '../routes.js';
import { median, round } from './measure.js';

/**
 * Each function's bundle, built with the CDK's options, its size and its
 * median import time in a fresh Node process, against the floor: a bundle
 * holding only the DynamoDB document client, built the same way. A
 * function's `load_ratio` is its median import time over the floor's, sampled
 * in turn with it, so the figure means the same on a slower or busier machine.
 *
 * References are measured alike and reported beside the functions, not
 * among them: the least function any HTTP function here must be (the
 * floor, Powertools' logger, middy and valibot, no rule of its own), the
 * least one that also takes payments (Stripe's SDK and Secrets Manager),
 * and the least of each kind of payment function (STRIPE_FLOORS). They say
 * how much of a function's load time and size its own code is.
 */

/**
 * The least each kind of function that calls Stripe can be, on the
 * product's own edge and with what the design asks of it (the official
 * SDK, the key from Secrets Manager, metrics): the payment page's submit,
 * the events' receiver and the refund sender, with no rule of their own.
 * A payment function's size reads against its kind's.
 */
export const STRIPE_FLOORS = ['least-stripe-page', 'least-stripe-receiver', 'least-refund-sender'] as const;

/** Samples per function (and as many of the floor's, alternating with them). */
const SAMPLES = 11;
/** Samples of the least function taken beside each function's (each with a floor's). */
const LEAST_SAMPLES = 2;

export async function measureBundles() {
  const dir = join(PROJECT_ROOT, '.bench', 'bundles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const entries = [
    // A shared handler is one bundle, whichever families route to it.
    ...[...new Set(ROUTES.map((r) => r.handler))].map((handler) => ({ name: handler, entry: handlerEntry({ handler }) })),
    ...[...QUEUES.flatMap((q) => (q.worker ? [q.worker] : [])), ...SCHEDULES.map((s) => s.worker), 'outbox-stream'].map((w) => ({
      name: `consumers/${w}`,
      entry: join(PROJECT_ROOT, 'functions', 'consumers', `${w}.ts`),
    })),
  ];
  const unique = [...new Map(entries.map((e) => [e.name, e])).values()];
  const outOf = (name: string) => join(dir, `${name.replace('/', '--')}.mjs`);
  const floorEntry = join(PROJECT_ROOT, 'lib', 'bench', 'floor-entry.ts');
  const references = ['least-function', 'least-stripe-function', ...STRIPE_FLOORS].map((name) => ({
    name,
    entry: join(PROJECT_ROOT, 'lib', 'bench', `${name}.ts`),
  }));
  const built = await Promise.all(
    [...unique, ...references, { name: 'floor', entry: floorEntry }].map((e) =>
      build({ ...esbuildOptions(), entryPoints: [e.entry], outfile: outOf(e.name), metafile: true }),
    ),
  );
  // The functions that carry Stripe's SDK: read against their kind's least form, not the 300 KB bound (decision 28).
  const callsStripe = new Set(
    unique
      .filter((_, i) => Object.keys(Object.values(built[i]!.metafile.outputs)[0]!.inputs).some((f) => f.includes('node_modules/stripe/')))
      .map((e) => e.name),
  );
  const env = {
    ...process.env,
    TABLE_NAME: 'bench',
    AWS_REGION: 'eu-west-2',
    DOCUMENTS_BUCKET: 'bench',
    ...Object.fromEntries(QUEUES.map((q) => [queueUrlEnv(q.id), 'http://127.0.0.1:1/q'])),
  };
  const loadMs = (file: string) =>
    Number(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `const t = performance.now(); await import(${JSON.stringify(pathToFileURL(file).href)}); console.log(performance.now() - t);`,
        ],
        { env, encoding: 'utf8' },
      ).trim(),
    );
  // Each function's samples alternate with the floor's, so a drift in the machine's speed moves both alike.
  const floorSamples: number[] = [];
  // The least function, which every ratio over it divides by, is sampled beside every function, each sample with
  // a floor's, so that its figure pools hundreds of samples from the whole run: 11 of its own moved it by ±0.08.
  const leastSamples: number[] = [];
  const leastFloorSamples: number[] = [];
  const measure = (e: { name: string }) => {
    const own: number[] = [];
    const floor: number[] = [];
    for (let i = 0; i < SAMPLES; i++) {
      floor.push(loadMs(outOf('floor')));
      own.push(loadMs(outOf(e.name)));
      if (i < LEAST_SAMPLES) {
        leastFloorSamples.push(loadMs(outOf('floor')));
        leastSamples.push(loadMs(outOf('least-function')));
      }
    }
    floorSamples.push(...floor);
    return {
      function: e.name,
      bytes: statSync(outOf(e.name)).size,
      load_ms: round(median(own)),
      load_ratio: round(median(own) / median(floor)),
      ...(callsStripe.has(e.name) ? { calls_stripe: true } : {}),
    };
  };
  const measured = unique.map(measure);
  // The least function's figure is pooled over the run (see leastSamples above), not 11 samples of its own.
  const pooledLeast = (e: { name: string }) => ({
    function: e.name,
    bytes: statSync(outOf(e.name)).size,
    load_ms: round(median(leastSamples)),
    load_ratio: round(median(leastSamples) / median(leastFloorSamples)),
  });
  const referenceFigures = references.map((e) => (e.name === 'least-function' ? pooledLeast(e) : measure(e)));
  const floor = median(floorSamples);
  const floorBytes = statSync(outOf('floor')).size;
  rmSync(join(PROJECT_ROOT, '.bench'), { recursive: true, force: true });
  const spread = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { median: round(median(sorted)), p90: sorted[Math.min(sorted.length - 1, Math.floor(0.9 * sorted.length))]! };
  };
  const least = referenceFigures.find((r) => r.function === 'least-function')!;
  return {
    floor_load_ms: round(floor),
    floor_bytes: floorBytes,
    samples: SAMPLES,
    load_ratio: spread(measured.map((b) => b.load_ratio)),
    /** The functions' load ratios over the least function's: what their own code costs, the stack they must carry set aside. */
    load_ratio_vs_least_function: spread(measured.map((b) => round(b.load_ratio / least.load_ratio))),
    max_bytes: Math.max(...measured.map((b) => b.bytes)),
    over_300_kb: measured.filter((b) => b.bytes > 300 * 1024).map((b) => b.function),
    /** The largest bundle of the functions that do not call Stripe: the 300 KB bound holds for them (decision 28). */
    max_bytes_without_stripe: Math.max(...measured.filter((b) => !callsStripe.has(b.function)).map((b) => b.bytes)),
    references: referenceFigures,
    bundles: measured,
  };
}
