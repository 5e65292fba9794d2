import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import { invocations, invocationTime, isBilled, notBilled } from '../local/metering.js';

/**
 * Counts what the process's AWS SDK calls would be billed for: an SDK
 * middleware, installed on every client (DynamoDB, SQS) the first time it
 * sends, asks DynamoDB for the capacity each call consumed (DynamoDB Local
 * works it out from item sizes, as DynamoDB bills: 4 KB per read unit, half
 * for an eventually consistent read, 1 KB per write unit, twice that in a
 * transaction) and counts SQS requests. An empty ReceiveMessage is an idle
 * poll, a fixed cost of having a queue, not of an operation. Calls the local
 * stack marks as not billed (its stand-ins for the stream and TTL) are left
 * out; Lambda invocations come from the local stack's own count.
 */

export interface Usage {
  read_units: number;
  write_units: number;
  sqs_requests: number;
  api_requests: number;
  lambda_invocations: number;
  /** Billed duration of those invocations, as measured here (a busy machine makes it longer). */
  lambda_ms: number;
}

const counted = { read_units: 0, write_units: 0, sqs_requests: 0 };

const READS = new Set([
  'GetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'BatchGetItemCommand',
  'TransactGetItemsCommand',
  'GetCommand',
  'BatchGetCommand',
  'TransactGetCommand',
]);
/** Counted item by item by the transaction meter, not from what DynamoDB Local reports. */
const TRANSACT_WRITES = new Set(['TransactWriteItemsCommand', 'TransactWriteCommand']);
const CAPACITY = /^(Get|Put|Update|Delete|Query|Scan|BatchGet|BatchWrite|TransactGet|TransactWrite)(Item|Items)?Command$/;

type Capacity = { CapacityUnits?: number };
type Handler = (args: { input: Record<string, unknown> }) => Promise<{ output: Record<string, unknown> }>;
type Context = { clientName?: string; commandName?: string };

const meter =
  (next: Handler, context: Context): Handler =>
  async (args) => {
    const command = context.commandName ?? '';
    const dynamo = context.clientName?.startsWith('DynamoDB') && CAPACITY.test(command);
    if (dynamo) args.input.ReturnConsumedCapacity ??= 'TOTAL';
    const result = await next(args);
    if (!isBilled()) return result;
    if (dynamo && !TRANSACT_WRITES.has(command)) {
      const consumed = result.output.ConsumedCapacity as Capacity | Capacity[] | undefined;
      const units = [consumed ?? []].flat().reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      counted[READS.has(command) ? 'read_units' : 'write_units'] += units;
    } else if (context.clientName === 'SQSClient') {
      const idle = command === 'ReceiveMessageCommand' && !(result.output.Messages as unknown[] | undefined)?.length;
      if (!idle) counted.sqs_requests++;
    }
    return result;
  };

/**
 * A transaction's write units, item by item. DynamoDB Local reports one
 * item's capacity for a whole transaction (1, 5 or 10 items of 0.3 KB each
 * report 2), so each item is billed here as DynamoDB bills it: twice
 * ⌈size / 1 KB⌉, the size being the larger of the item before and after
 * (read around the transaction, not billed). Index writes are not counted.
 */
const transactionMeter =
  (client: DynamoDBClient): ((next: Handler, context: Context) => Handler) =>
  (next, context) =>
  async (args) => {
    if (!context.clientName?.startsWith('DynamoDB') || !TRANSACT_WRITES.has(context.commandName ?? '') || !isBilled()) return next(args);
    const parts = ((args.input.TransactItems as TransactPart[] | undefined) ?? []).map(partOf);
    const before = await notBilled(() => sizesOf(client, parts));
    const result = await next(args);
    const after = await notBilled(() => sizesOf(client, parts));
    counted.write_units += parts.reduce((sum, p, i) => sum + 2 * Math.max(1, Math.ceil(Math.max(p.size ?? 0, before[i]!, after[i]!) / 1024)), 0);
    return result;
  };

type AttributeValue = Record<string, unknown>;
type TransactPart = Partial<
  Record<'Put' | 'Update' | 'Delete' | 'ConditionCheck', { TableName: string; Item?: Record<string, AttributeValue>; Key?: Record<string, AttributeValue> }>
>;
const partOf = (part: TransactPart) => {
  const [kind, body] = Object.entries(part)[0]!;
  return kind === 'Put' ? { table: body.TableName, size: itemSize(body.Item ?? {}) } : { table: body.TableName, key: body.Key! };
};

/** Each keyed part's stored item size now (0 when absent); a Put's own size is taken from its item. */
async function sizesOf(client: DynamoDBClient, parts: { table: string; key?: Record<string, AttributeValue> }[]): Promise<number[]> {
  return Promise.all(
    parts.map(async (p) => {
      if (!p.key) return 0;
      const { Item } = await client.send(new GetItemCommand({ TableName: p.table, Key: p.key as never, ConsistentRead: true }));
      return Item ? itemSize(Item as unknown as Record<string, AttributeValue>) : 0;
    }),
  );
}

/** An item's size as DynamoDB counts it: attribute names plus values (numbers about a byte per two digits). */
function itemSize(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);
}
function valueSize(v: AttributeValue): number {
  const [type, x] = Object.entries(v)[0]!;
  switch (type) {
    case 'S':
      return Buffer.byteLength(x as string);
    case 'N':
      return Math.ceil(String(x).replace(/^-|\.|e.*$/gi, '').length / 2) + 1;
    case 'B':
      return (x as Uint8Array).length;
    case 'SS':
    case 'NS':
    case 'BS':
      return (x as unknown[]).reduce<number>((sum, e) => sum + valueSize({ [type.slice(0, 1)]: e }), 0);
    case 'M':
      return 3 + Object.entries(x as Record<string, AttributeValue>).reduce((sum, [k, e]) => sum + Buffer.byteLength(k) + valueSize(e) + 1, 0);
    case 'L':
      return 3 + (x as AttributeValue[]).reduce((sum, e) => sum + valueSize(e) + 1, 0);
    default:
      return 1; // BOOL, NULL
  }
}

let installed = false;

/** Puts the meter on every SDK client of this process (they share smithy's Client). */
export function installMeter(): void {
  if (installed) return;
  installed = true;
  const Client = Object.getPrototypeOf(DynamoDBClient.prototype) as { send: (...args: unknown[]) => unknown };
  const send = Client.send;
  const stacks = new WeakSet<object>();
  Client.send = function (this: { middlewareStack: { add: (m: unknown, o: unknown) => void } }, ...args: unknown[]) {
    if (!stacks.has(this.middlewareStack)) {
      stacks.add(this.middlewareStack);
      this.middlewareStack.add(meter, { step: 'initialize', name: 'benchMeter', override: true });
      // After serialisation's marshalling: the transaction's items as DynamoDB gets them, whichever client sent them.
      this.middlewareStack.add(transactionMeter(this as unknown as DynamoDBClient), { step: 'build', name: 'benchTransactionMeter', override: true });
    }
    return send.apply(this, args);
  };
}

/** Everything counted so far: a reading to subtract from a later one. */
export const reading = (): Usage => ({
  ...counted,
  api_requests: invocations.api,
  lambda_invocations: invocations.api + invocations.worker + invocations.stream,
  lambda_ms: invocationTime.ms,
});

export const since = (before: Usage, per = 1): Usage => {
  const now = reading();
  const each = (k: keyof Usage) => Math.round(((now[k] - before[k]) / per) * 1000) / 1000;
  return {
    read_units: each('read_units'),
    write_units: each('write_units'),
    sqs_requests: each('sqs_requests'),
    api_requests: each('api_requests'),
    lambda_invocations: each('lambda_invocations'),
    lambda_ms: each('lambda_ms'),
  };
};

/**
 * AWS list prices, eu-west-2 (London), USD: DynamoDB on-demand request units
 * (Standard table class), SQS standard queue requests (per 64 KB chunk),
 * Lambda requests and duration (x86), API Gateway HTTP API requests (first
 * 300 million a month). Lambda duration is priced at the memory size the
 * stacks give a function (lib/project-function.ts) for the time the handlers
 * took here (see `priced`).
 */
export const PRICES = {
  region: 'eu-west-2',
  dynamodb_write_request_unit_per_million: 0.7425,
  dynamodb_read_request_unit_per_million: 0.1485,
  sqs_request_per_million: 0.4,
  lambda_request_per_million: 0.2,
  lambda_gb_second: 0.0000166667,
  lambda_memory_mb: 512,
  http_api_request_per_million: 1.04,
  eventbridge_api_destination_event_per_million: 1.2,
};

const usd = (x: number) => Math.round(x * 1000) / 1000;

/**
 * What one million of an operation costs at those prices: `usd_per_million`
 * for what is counted (request units, queue requests, API requests and Lambda
 * invocations), and with Lambda duration added as measured here, on a
 * machine where client, emulators and handlers share two cores, so an upper
 * bound rather than a forecast.
 */
export function priced(u: Usage): { usd_per_million: number; usd_per_million_with_duration: number } {
  const counted =
    u.write_units * PRICES.dynamodb_write_request_unit_per_million +
    u.read_units * PRICES.dynamodb_read_request_unit_per_million +
    u.sqs_requests * PRICES.sqs_request_per_million +
    u.api_requests * PRICES.http_api_request_per_million +
    u.lambda_invocations * PRICES.lambda_request_per_million;
  const duration = (PRICES.lambda_memory_mb / 1024) * (u.lambda_ms / 1000) * PRICES.lambda_gb_second * 1e6;
  return { usd_per_million: usd(counted), usd_per_million_with_duration: usd(counted + duration) };
}
