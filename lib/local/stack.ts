import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createSqsClient } from '../../functions/core/platform/sqs.js';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { seedDemoData, type DemoClient } from '../../functions/core/demo-data.js';
import { seedDemoRequests, seedRequestGroups } from '../../functions/core/portal-v2/demo-requests.js';
import { inviteLinks } from '../../functions/http/portal-v2/_invite-links.js';
import { createS3Client } from '../../functions/core/documents/attach.js';
import { DOCUMENTS_BUCKET_ENV } from '../../functions/core/documents/kinds.js';
import { deliveryConfigFromEnv } from '../../functions/core/webhooks/delivery.js';
import { DELIVERY_LANES } from '../../functions/core/webhooks/retry.js';
import { backfillBookingLogs } from '../../functions/core/bookings/backfill.js';
import { backfillLockIndex } from '../../functions/core/inventory/units.js';
import { backfillReferenceRetention } from '../../functions/core/portal-v2/references.js';
import { backfillRegistrationRetention } from '../../functions/core/registration-monitoring/evidence-backfill.js';
import { reindexVlsSessions } from '../../functions/core/virtual-life-support/catalogue.js';
import { deprecationSchedules } from '../../functions/core/platform/deprecation.js';
import { FAMILIES, FAMILY_IDS, tokenFamilyOf } from '../../functions/core/platform/families.js';
import { queueUrlEnv } from '../../functions/core/platform/config.js';
import { QUEUES, SCHEDULES } from '../queues.js';
import { PROJECT_ROOT, ROUTES } from '../routes.js';
import { startDynamoDbLocal, startLocalSqs, type RunningEmulator } from './emulators.js';
import { outboxQueueUrls } from '../../functions/core/events/relay.js';
import { startOutboxPoller } from './outbox-poller.js';
import { createLogger } from '../../functions/middleware/logger.js';
import { PARKED_LOG_MESSAGE } from '../../functions/core/events/outbox.js';
import { startPoller, type Poller, type SqsWorker } from './pollers.js';
import { lockDataDir } from './lock.js';
import { createServer as createNetServer } from 'node:net';
import { ensureBucket, ensureKeyFormat, ensureQueues, ensureTable } from './provision.js';
import { handleS3Post, S3_POST_PREFIX } from './s3-post.js';
import { createLocalServer, loadRoutes, type ExtraHandler } from './server.js';

/** Another program listens on the port the stack would serve on. */
export class PortInUse extends Error {
  constructor(port: number) {
    super(`Port ${port} is in use by another program: stop it, or start on another port (PORT=${port + 1} npm start).`);
    this.name = 'PortInUse';
  }
}

function portFree(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(err.code === 'EADDRINUSE' ? new PortInUse(port) : err));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve()));
  });
}

/** The whole local stack: emulators, table and queues, demo data, the HTTP server and the queue pollers. */

export interface LocalStackOptions {
  /** 0 picks a free port. */
  port: number;
  dataDir: string;
  /** Reuse emulators that are already running (the test suite's); otherwise start them, keeping data in dataDir. */
  dynamoEndpoint?: string;
  sqsEndpoint?: string;
  tableName?: string;
  queuePrefix?: string;
  /** Run every schedule this often instead of at its rate (tests). */
  scheduleIntervalMs?: number;
  onError?: (err: unknown) => void;
  /** Seed the request groups' demo requests (npm start: yes; a test stack only when it looks at them: they cost seconds under load). */
  demoRequests?: boolean;
  /** Called once the data directory is locked, before anything else starts. */
  onStarting?: () => void;
}

export interface LocalInfo {
  base_url: string;
  families: Record<string, string>;
  /** Families that take another family's tokens (decision 3): the family whose tokens they take. */
  token_families: Record<string, string>;
  /** Deprecated families: when they were deprecated, their sunset and brownout windows (ISO instants). */
  deprecations: Record<string, { deprecated_at: string; sunset_at: string; brownouts: { start: string; end: string }[]; successor: string | null }>;
  docs_url: string;
  clients: readonly DemoClient[];
  table_name: string;
  region: string;
  dynamodb_endpoint: string;
  sqs_endpoint: string;
  documents_bucket: string;
  mailbox_dir: string;
}

export interface LocalStack {
  info: LocalInfo;
  stop(): Promise<void>;
}

export const LOCAL_REGION = 'eu-west-2';
export const localInfoPath = (dataDir: string) => join(dataDir, 'local.json');

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  // A deprecation schedule that makes no sense (sunset before deprecation, overlapping brownouts) stops the start here.
  const deprecations = deprecationSchedules();
  const dataDir = resolve(options.dataDir);
  mkdirSync(join(dataDir, 'mailbox'), { recursive: true });
  // Before anything touches the directory: it may be another running stack's.
  const lock = lockDataDir(dataDir, options.port);
  // A busy port is said at once, before the emulators start or any demo data is seeded.
  if (options.port !== 0)
    await portFree(options.port).catch((err: unknown) => {
      lock.release();
      throw err;
    });
  options.onStarting?.();
  rmSync(localInfoPath(dataDir), { force: true });
  const cleanups: (() => Promise<void>)[] = [];
  // One part that will not stop (a worker batch stuck on a slow call) must not keep the others,
  // and the lock and local.json, from being cleaned up: each part gets a bounded time.
  const withinTime = (cleanup: () => Promise<void>) =>
    new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('a part of the local stack did not stop within 15 s')), 15_000);
      cleanup()
        .then(resolve, reject)
        .finally(() => clearTimeout(timer));
    });
  const stop = async () => {
    for (const cleanup of cleanups.reverse()) await withinTime(cleanup).catch(options.onError);
    cleanups.length = 0;
    lock.release();
  };

  try {
    const started = async (emulator: Promise<RunningEmulator>) => {
      const running = await emulator;
      cleanups.push(() => running.stop());
      return running.endpoint;
    };
    const dynamoEndpoint = options.dynamoEndpoint ?? (await started(startDynamoDbLocal({ dbPath: mkdirP(join(dataDir, 'dynamodb')) })));
    const sqsEndpoint = options.sqsEndpoint ?? (await started(startLocalSqs({ dataDir: mkdirP(join(dataDir, 'sqs')) })));
    const tableName = options.tableName ?? 'agency-local';

    // The handlers read their configuration from the environment, exactly as in Lambda.
    Object.assign(process.env, {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_ENDPOINT_URL_DYNAMODB: dynamoEndpoint,
      AWS_ENDPOINT_URL_SQS: sqsEndpoint,
      // The local SQS server answers S3 too: documents (interview reports, ...) live there.
      AWS_ENDPOINT_URL_S3: sqsEndpoint,
      TABLE_NAME: tableName,
      [DOCUMENTS_BUCKET_ENV]: `${options.queuePrefix ?? 'agency-local'}-documents`,
      LOCAL_STACK: '1',
      MAILBOX_DIR: join(dataDir, 'mailbox'),
      // Registration checks' evidence: read-only files, written once (the cloud's Object Lock bucket).
      EVIDENCE_DIR: join(dataDir, 'evidence'),
      // The test provider unless told otherwise (PAYMENT_PROVIDER=stripe with STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET).
      PAYMENT_PROVIDER: process.env.PAYMENT_PROVIDER || 'test',
      // Locally, receivers run on this machine: http and loopback are allowed (link-local and private never).
      WEBHOOK_ALLOW_LOOPBACK: '1',
    });
    delete process.env.AWS_SESSION_TOKEN;
    delete process.env.AWS_PROFILE;

    const dynamo = new DynamoDBClient({});
    await ensureTable(dynamo, tableName);
    await ensureKeyFormat(dynamo, tableName, options.dataDir);
    const sqs = createSqsClient();
    // The dead-letter move must follow the last step of the retry schedule the delivery worker uses.
    const maxReceiveCount = deliveryConfigFromEnv().schedule.length + 1;
    const queues = await ensureQueues(
      sqs,
      options.queuePrefix ?? 'agency-local',
      Object.fromEntries(Object.values(DELIVERY_LANES).map((id) => [id, { maxReceiveCount }])),
    );
    for (const queue of queues) process.env[queueUrlEnv(queue.id)] = queue.url;
    await ensureBucket(createS3Client(), process.env[DOCUMENTS_BUCKET_ENV]!);

    const deps = depsFromEnv();
    // Bookings, unit locks and life-support sessions a stack of an earlier version left in the data directory join the change log, the schedule, the lock index and their course's index.
    await backfillBookingLogs(deps);
    await backfillLockIndex(deps);
    await reindexVlsSessions(deps);
    // Registration checks, evidence, alerts and reference requests an earlier version left get their retention end.
    await backfillRegistrationRetention(deps);
    await backfillReferenceRetention(deps);
    const clients = await seedDemoData(deps);

    const pollers: Poller[] = [];
    cleanups.push(async () => void (await Promise.all(pollers.map((p) => p.stop()))));
    for (const def of QUEUES.filter((q) => q.worker)) {
      const queue = queues.find((q) => q.id === def.id)!;
      const module = (await importWorker(def.worker!)) as { handler: SqsWorker };
      // As many pollers as the cloud's event source mapping may run batches at once.
      for (let i = 0; i < def.maxConcurrency; i++) {
        pollers.push(
          startPoller({ sqs, queueUrl: queue.url, queueArn: queue.arn, batchSize: def.batchSize, worker: module.handler, onError: options.onError }),
        );
      }
    }

    const queueUrls = outboxQueueUrls((id) => queues.find((q) => q.id === id)!.url);
    // A parked item is the local stand-in for the cloud's alarm: one error line in the log (`npm run ops -- outbox parked` lists them).
    const relayLog = createLogger({ worker: 'outbox-stream' });
    const outbox = startOutboxPoller(deps, { sqs, queueUrls }, { onError: options.onError, onParked: (parked) => relayLog.error(PARKED_LOG_MESSAGE, parked) });
    cleanups.push(() => outbox.stop());

    // The cloud runs these on EventBridge rules; here the same workers run on timers at the same rate.
    for (const def of SCHEDULES) {
      const module = (await importWorker(def.worker)) as { handler: () => Promise<unknown> };
      const timer = setInterval(() => void module.handler().catch(options.onError), options.scheduleIntervalMs ?? def.everyMinutes * 60_000);
      cleanups.push(async () => clearInterval(timer));
    }

    // Browsers post request files straight to the bucket (a signed POST policy); here this server stands in for S3's endpoint.
    const s3Post: ExtraHandler = {
      prefix: S3_POST_PREFIX,
      method: 'POST',
      handle: (req, res) =>
        handleS3Post(req, res, createS3Client(), (id) => (id === process.env.AWS_ACCESS_KEY_ID ? process.env.AWS_SECRET_ACCESS_KEY : undefined)),
    };
    const server = createLocalServer(await loadRoutes(ROUTES), options.onError, [s3Post]);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, '127.0.0.1', () => resolve());
    });
    cleanups.push(
      () =>
        new Promise<void>((resolve) => {
          server.close(() => resolve());
          // Keep-alive sockets a client left open would hold close() for the keep-alive timeout.
          server.closeAllConnections();
        }),
    );
    const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    lock.listening((server.address() as AddressInfo).port);
    // Links in responses and e-mails point at this server.
    process.env.PUBLIC_ROOT_URL = baseUrl;
    process.env.DOCUMENTS_UPLOAD_URL = `${baseUrl}${S3_POST_PREFIX}${process.env[DOCUMENTS_BUCKET_ENV]}`;
    // The request groups' entitlements and templates; their demo requests carry links, so they are seeded once the address is known.
    await seedRequestGroups(deps);
    if (options.demoRequests !== false) await seedDemoRequests(deps, baseUrl + FAMILIES['portal-v2'].prefix, inviteLinks);

    const info: LocalInfo = {
      base_url: baseUrl,
      families: Object.fromEntries(FAMILY_IDS.map((id) => [id, baseUrl + FAMILIES[id].prefix])),
      token_families: Object.fromEntries(FAMILY_IDS.filter((id) => tokenFamilyOf(id) !== id).map((id) => [id, tokenFamilyOf(id)])),
      deprecations: Object.fromEntries(
        deprecations.map((d) => [
          d.family,
          {
            deprecated_at: d.deprecatedAt.toISOString(),
            sunset_at: d.sunsetAt.toISOString(),
            brownouts: d.brownouts.map((w) => ({ start: w.start.toISOString(), end: w.end.toISOString() })),
            successor: d.successor ?? null,
          },
        ]),
      ),
      docs_url: `${baseUrl}/docs`,
      clients,
      table_name: tableName,
      region: LOCAL_REGION,
      dynamodb_endpoint: dynamoEndpoint,
      sqs_endpoint: sqsEndpoint,
      documents_bucket: process.env[DOCUMENTS_BUCKET_ENV]!,
      mailbox_dir: join(dataDir, 'mailbox'),
    };
    // Written only once the server answers, so a script may wait for this file.
    const probe = await fetch(info.docs_url);
    if (!probe.ok) throw new Error(`The local server did not answer its own probe (${probe.status})`);
    writeFileSync(localInfoPath(dataDir), JSON.stringify(info, null, 2) + '\n');
    cleanups.unshift(async () => rmSync(localInfoPath(dataDir), { force: true }));
    return { info, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

const importWorker = (name: string): Promise<unknown> => import(pathToFileURL(join(PROJECT_ROOT, 'functions', 'consumers', `${name}.ts`)).href);

function mkdirP(dir: string): string {
  mkdirSync(dir, { recursive: true });
  return dir;
}
