import type { DocumentKindId } from '../functions/core/documents/kinds.js';
import { JOB_ATTEMPTS } from '../functions/core/jobs/rules.js';
import { DELIVERY_LANES, RETRY_SCHEDULE, type Lane } from '../functions/core/webhooks/retry.js';

// What runs asynchronously, read by the CDK stacks and the local stack alike. CDK synth loads this
// module, so it imports nothing that pulls in the AWS SDK or middy (a test in test/infra guards it).

/** What a worker may use besides its trigger; the workers stack grants it. */
export interface WorkerAccess {
  /** Queues the worker sends to. */
  sendsTo?: string[];
  /** The worker's access to the table, if any. */
  table?: 'read' | 'readwrite';
  /** Document kinds it reaches (`bindDocuments`: under their prefixes only). */
  documents?: readonly DocumentKindId[];
  /** Document kinds it deletes as well (a data subject erasure deletes a person's files, whoever wrote them). */
  deletes?: readonly DocumentKindId[];
  /** Reaches Stripe (refunds): it may read the stage's Stripe secrets. */
  stripe?: true;
  /** Writes and reads registration checks' evidence (`bindEvidence`). */
  evidence?: true;
}

/**
 * The SQS queues, each with its dead-letter queue. The data stack creates
 * them in the cloud and the local stack creates them on the local SQS server.
 * A queue with a `worker` is consumed by that module under functions/consumers
 * (an event source mapping in the cloud, a poller locally).
 */
export interface QueueDefinition extends WorkerAccess {
  /** Also the environment variable suffix: QUEUE_URL_<ID upper-cased>. */
  id: string;
  visibilityTimeoutSeconds: number;
  /** Receives before a message moves to the dead-letter queue. */
  maxReceiveCount: number;
  batchSize: number;
  /** Concurrent batches: the event source mapping's maximum concurrency in the cloud, the number of pollers locally. */
  maxConcurrency: number;
  worker?: string;
  /** The worker's Lambda time-out; below the visibility timeout. */
  workerTimeoutSeconds?: number;
  /** Alarm when the oldest message is older than this (seconds). */
  maxAgeSeconds: number;
}

/**
 * One message per (event, endpoint), in one of two lanes. Retries are scheduled by changing visibility; one receive per
 * step of the schedule plus the first, then the dead-letter queue. Messages
 * wait here for hours between retries by design: the age alarm allows the
 * longest step. The slow lane has fewer pollers: its endpoints may hang. A
 * fast-lane batch lasts FAST_LANE_BUDGET_SECONDS (retry.ts) and its
 * bookkeeping at most, however long its endpoints' timeouts: new endpoints
 * that hang can hold all of its concurrent batches for that long only.
 */
const deliveryLane = (lane: Lane, worker: string, maxConcurrency: number): QueueDefinition => ({
  id: DELIVERY_LANES[lane],
  visibilityTimeoutSeconds: 120,
  maxReceiveCount: RETRY_SCHEDULE.length + 1,
  batchSize: 10,
  maxConcurrency,
  worker,
  workerTimeoutSeconds: 60,
  table: 'readwrite',
  // Its own queue too: deliveries beyond the per-endpoint bound are queued again.
  sendsTo: [...new Set([DELIVERY_LANES[lane], DELIVERY_LANES.slow])],
  maxAgeSeconds: Math.max(...RETRY_SCHEDULE) * 1.3,
});

export const QUEUES: readonly QueueDefinition[] = [
  // Outbox events on their way to fan-out.
  {
    id: 'events',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    maxConcurrency: 5,
    worker: 'event-fanout',
    sendsTo: Object.values(DELIVERY_LANES),
    table: 'read',
    maxAgeSeconds: 300,
  },
  deliveryLane('fast', 'webhook-delivery', 10),
  deliveryLane('slow', 'webhook-delivery-slow', 5),
  // Outgoing e-mail: SES in the cloud, files in the local mailbox. The table: a message's hand-over receipt (an invite becomes `sent`).
  {
    id: 'emails',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 5,
    batchSize: 10,
    maxConcurrency: 2,
    worker: 'email-sender',
    table: 'readwrite',
    maxAgeSeconds: 900,
  },
  // Job tasks, a run of one job's tasks to a message (functions/core/jobs): registration monitoring's batch checks
  // and imports. A message's tasks run one after another (25 checks within their budget), so one message to a
  // batch. On the last receive a task that throws is counted as errored, so the dead-letter queue only keeps what
  // could not be counted.
  {
    id: 'jobs',
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: JOB_ATTEMPTS,
    batchSize: 1,
    maxConcurrency: 5,
    worker: 'jobs',
    workerTimeoutSeconds: 300,
    table: 'readwrite',
    evidence: true,
    maxAgeSeconds: 1800,
  },
  // Data subject exports and erasures, jobs of one task each (core/data-rights), on a queue and consumer of their
  // own: a person's request neither waits behind an agency's 10,000 checks nor loads their code, and only this
  // consumer may delete the files an erasure reaches (interview reports, portal v2 request files).
  {
    id: 'subject_jobs',
    visibilityTimeoutSeconds: 360,
    maxReceiveCount: JOB_ATTEMPTS,
    batchSize: 1,
    maxConcurrency: 2,
    worker: 'subject-jobs',
    workerTimeoutSeconds: 300,
    table: 'readwrite',
    maxAgeSeconds: 1800,
    documents: ['interview-reports', 'request-files'],
    deletes: ['interview-reports', 'request-files'],
  },
  // Registration monitoring checks the dispatcher found due, run one after another (each within the register's 8 s budget).
  // A redelivered one finds its claim: it runs under the same verification id or stops.
  {
    id: 'checks',
    visibilityTimeoutSeconds: 180,
    maxReceiveCount: 5,
    batchSize: 5,
    maxConcurrency: 4,
    worker: 'monitoring-checks',
    workerTimeoutSeconds: 120,
    table: 'readwrite',
    evidence: true,
    maxAgeSeconds: 1800,
  },
  // Refunds owed to candidates, sent to the payment provider (core/commerce/refunds.ts). A failure waits longer each time
  // (the worker's backoff, up to 15 minutes); after eight receives, about an hour and a half, the dead-letter queue's alarm calls a person.
  {
    id: 'refunds',
    visibilityTimeoutSeconds: 60,
    maxReceiveCount: 8,
    batchSize: 5,
    maxConcurrency: 2,
    worker: 'refund-sender',
    workerTimeoutSeconds: 40,
    table: 'readwrite',
    stripe: true,
    maxAgeSeconds: 7200,
  },
];

/**
 * The scheduled workers, each a module under functions/consumers whose handler
 * takes no input: an EventBridge rule per entry in the cloud, a timer in the
 * local stack, both at the entry's rate.
 */
export interface ScheduleDefinition extends WorkerAccess {
  id: string;
  worker: string;
  everyMinutes: number;
  /** The worker's Lambda time-out. */
  timeoutSeconds: number;
  /** Also the rule's description. */
  description: string;
}

export const SCHEDULES: readonly ScheduleDefinition[] = [
  // Requests (references first) expire on time even when nobody looks at them.
  {
    id: 'request-expiry',
    worker: 'request-expiry',
    everyMinutes: 15,
    table: 'readwrite',
    timeoutSeconds: 120,
    description: 'Expire requests whose time is up',
  },
  // An unpaid candidate_pays booking gives its slot back at its payment deadline (the payment page refuses by the clock already).
  {
    id: 'payment-expiry',
    worker: 'payment-expiry',
    everyMinutes: 5,
    table: 'readwrite',
    timeoutSeconds: 120,
    description: 'Cancel candidate_pays bookings unpaid at their payment deadline',
  },
  // Expired seat holds are free by the clock already; the sweep only announces them (seat_hold.expired), once each.
  // Registration monitoring: the checks that are due, from the due items' hour buckets (decision 15); never a scan.
  {
    id: 'monitoring-dispatch',
    worker: 'monitoring-dispatch',
    everyMinutes: 5,
    table: 'readwrite',
    timeoutSeconds: 120,
    description: 'Queue the registration monitoring checks that are due',
  },
  // Last month's monitoring usage to the ledger, from 02:00 on the 1st; hourly so a missed run is made up, and once (a marker per month).
  {
    id: 'monitoring-usage-rollup',
    worker: 'monitoring-usage-rollup',
    everyMinutes: 60,
    table: 'readwrite',
    timeoutSeconds: 300,
    description: "Roll last month's registration monitoring usage up to the ledger",
  },
  // Request groups and reference requests keep files and data for their retention from closing, then purge them;
  // locally it also deletes registration evidence files past retention (the evidence bucket's lifecycle rule does it in the cloud).
  {
    id: 'request-purge',
    worker: 'request-purge',
    everyMinutes: 60,
    table: 'readwrite',
    documents: ['request-files'],
    timeoutSeconds: 300,
    description: 'Purge request files and data whose retention has ended',
  },
  {
    id: 'seat-hold-sweep',
    worker: 'seat-hold-sweep',
    everyMinutes: 1,
    table: 'readwrite',
    timeoutSeconds: 50,
    description: 'Announce practical training seat holds that expired unused',
  },
  // Virtual life-support kit not posted back by its due date: overdue with the late fee and its event, then lost.
  {
    id: 'equipment-sweep',
    worker: 'equipment-sweep',
    everyMinutes: 60,
    table: 'readwrite',
    timeoutSeconds: 300,
    description: 'Mark virtual life-support kit overdue or lost and charge its fee',
  },
];
