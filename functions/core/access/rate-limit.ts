import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { toEpochSeconds } from '../platform/clock.js';
import { failedItem, isConditionalCheckFailed } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { sha256Hex } from '../platform/secrets.js';
import { clientKeys, ensureAccessRecord } from './clients.js';

/**
 * Fixed-window counters kept in DynamoDB so every Lambda shares them: the
 * per-client request limit (on the client's access record, clients.ts), and
 * the limits on anonymous callers (failed sign-ins per source address, per
 * (client id, source address) and per client id, requests per link token),
 * each on an item per window.
 */

const RATE = TABLE_KEYS.rate;
export const rateLimitKeys = {
  window: (subject: string, windowStart: number) => ({ pk: key(RATE.pk, subject), sk: key(RATE.sk.window, windowStart) }),
};

/** What a counter counts; secrets and caller-chosen text are hashed so a key never holds them and stays short. */
export const rateSubjects = {
  authFailuresFromAddress: (address: string) => `AUTHFAIL#ADDR#${sha256Hex(address)}`,
  exchangeFailuresOfClient: (clientId: string) => `AUTHFAIL#CLIENT#${sha256Hex(clientId)}`,
  exchangeFailuresOfClientFromAddress: (clientId: string, address: string) => `AUTHFAIL#CLIENT#${sha256Hex(clientId)}#ADDR#${sha256Hex(address)}`,
  linkToken: (token: string) => `LINK#${sha256Hex(token)}`,
  /** One visitor of one link: the link's token and the source address, hashed together. */
  linkVisitor: (token: string, address: string) => `LINK#${sha256Hex(token)}#ADDR#${sha256Hex(address)}`,
};

export interface RatePolicy {
  limit: number;
  windowSeconds: number;
}

export interface RateLimitState {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the current window ends. */
  resetSeconds: number;
  windowSeconds: number;
}

function windowOf(deps: Deps, policy: RatePolicy) {
  const now = toEpochSeconds(deps.clock());
  const start = now - (now % policy.windowSeconds);
  return { start, resetSeconds: start + policy.windowSeconds - now };
}

const stateOf = (count: number, policy: RatePolicy, resetSeconds: number): RateLimitState => ({
  allowed: count <= policy.limit,
  limit: policy.limit,
  remaining: Math.max(0, policy.limit - count),
  resetSeconds,
  windowSeconds: policy.windowSeconds,
});

/** Counts one more in the current window and says whether it is within the limit. */
export async function consume(deps: Deps, subject: string, policy: RatePolicy): Promise<RateLimitState> {
  const { start, resetSeconds } = windowOf(deps, policy);
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: rateLimitKeys.window(subject, start),
      UpdateExpression: 'ADD request_count :one SET #ttl = if_not_exists(#ttl, :ttl)',
      ExpressionAttributeNames: { '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':one': 1, ':ttl': start + policy.windowSeconds * 2 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return stateOf(Number(Attributes?.request_count ?? 1), policy, resetSeconds);
}

/**
 * Takes one of a window's places if one is left: the count only ever goes up
 * to the limit, so concurrent callers cannot all slip past one check. Says
 * where it counted, so `release` can give the place back.
 */
async function reserve(deps: Deps, subject: string, policy: RatePolicy): Promise<{ state: RateLimitState; key?: ReturnType<typeof rateLimitKeys.window> }> {
  const { start, resetSeconds } = windowOf(deps, policy);
  const key = rateLimitKeys.window(subject, start);
  try {
    const { Attributes } = await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: key,
        UpdateExpression: 'ADD request_count :one SET #ttl = if_not_exists(#ttl, :ttl)',
        ConditionExpression: 'attribute_not_exists(request_count) OR request_count < :limit',
        ExpressionAttributeNames: { '#ttl': 'ttl' },
        ExpressionAttributeValues: { ':one': 1, ':limit': policy.limit, ':ttl': start + policy.windowSeconds * 2 },
        ReturnValues: 'UPDATED_NEW',
      }),
    );
    return { state: stateOf(Number(Attributes?.request_count ?? 1), policy, resetSeconds), key };
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    return { state: stateOf(policy.limit + 1, policy, resetSeconds) };
  }
}

/** Gives back a place `reserve` took (in the window it took it in). */
async function release(deps: Deps, key: ReturnType<typeof rateLimitKeys.window>): Promise<void> {
  await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: key,
        UpdateExpression: 'ADD request_count :minus',
        ConditionExpression: 'request_count > :zero',
        ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
      }),
    )
    .catch((err) => {
      if (!isConditionalCheckFailed(err)) throw err;
    });
}

export const tooManyRequests = (state: RateLimitState, what: string) =>
  new DomainError('rate-limited', `At most ${state.limit} ${what} per ${state.windowSeconds} seconds`, { retry_after_seconds: state.resetSeconds });

/**
 * Counts a client's request to a family in the current window, on the
 * client's access record, and returns the record as the count left it: the
 * request's one round trip reads what authentication decides on and counts
 * the request. The window's start and count are two attributes per family;
 * a record still on an older window starts the new one at one (a second
 * write, once a window). `record` is undefined for no such client.
 */
export async function countRequest(
  deps: Deps,
  clientId: string,
  family: FamilyId,
): Promise<{ record: Record<string, unknown> | undefined; state: RateLimitState }> {
  const policy = { limit: deps.config.rateLimitRequests, windowSeconds: deps.config.rateLimitWindowSeconds };
  const { start, resetSeconds } = windowOf(deps, policy);
  const prefix = family.replaceAll('-', '_');
  const names = { '#window': `${prefix}_window`, '#count': `${prefix}_requests` };
  const update = (expression: string, condition: string, window: number) =>
    deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: clientKeys.access(clientId),
        UpdateExpression: expression,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':one': 1, ':window': window },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  let window = start;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const { Attributes } = await update('ADD #count :one', '#window = :window', window);
      return { record: Attributes, state: stateOf(Number(Attributes![names['#count']]), policy, resetSeconds) };
    } catch (err) {
      if (!isConditionalCheckFailed(err)) throw err;
      const old = failedItem(err);
      if (!old) {
        // A client stored before access records gets one; no client at all has none.
        try {
          await ensureAccessRecord(deps, clientId);
        } catch (missing) {
          if (missing instanceof DomainError && missing.code === 'not-found') return { record: undefined, state: stateOf(1, policy, resetSeconds) };
          throw missing;
        }
        continue;
      }
      const theirs = Number(old[names['#window']] ?? 0);
      // Another function's clock is a window ahead: count in its window.
      if (theirs > window) {
        window = theirs;
        continue;
      }
    }
    try {
      const { Attributes } = await update(
        'SET #window = :window, #count = :one',
        'attribute_exists(pk) AND (attribute_not_exists(#window) OR #window < :window)',
        window,
      );
      return { record: Attributes, state: stateOf(1, policy, resetSeconds) };
    } catch (err) {
      // Another request started the window first: count in it.
      if (!isConditionalCheckFailed(err)) throw err;
    }
  }
  throw new Error(`The request window of client ${clientId} kept changing`);
}

/**
 * Clients this container found over their limit in a family, until their
 * window ends, with the access record that count returned. A refused
 * request's write is billed and lands on the client's one access item, so a
 * client that ignores 429 would otherwise write it with every request; this
 * only ever refuses (a new window is counted in DynamoDB again).
 */
const overLimit = new Map<string, { until: number; record: Record<string, unknown> | undefined; state: RateLimitState }>();

/** Remembers a refusal counted in DynamoDB, until its window ends. */
export function rememberRefusal(clientId: string, family: FamilyId, state: RateLimitState, record: Record<string, unknown> | undefined, now: Date): void {
  if (state.allowed) return;
  if (overLimit.size >= 10_000) for (const [k, v] of overLimit) if (v.until <= now.getTime()) overLimit.delete(k);
  overLimit.set(`${clientId}#${family}`, { until: now.getTime() + state.resetSeconds * 1000, record, state });
}

/** A refusal remembered for the client and family whose window has not ended, with the seconds left; else undefined. */
export function refusedInMemory(
  clientId: string,
  family: FamilyId,
  now: Date,
): { record: Record<string, unknown> | undefined; state: RateLimitState } | undefined {
  const known = overLimit.get(`${clientId}#${family}`);
  if (!known) return undefined;
  if (known.until <= now.getTime()) {
    overLimit.delete(`${clientId}#${family}`);
    return undefined;
  }
  return { record: known.record, state: { ...known.state, remaining: 0, resetSeconds: Math.max(1, Math.ceil((known.until - now.getTime()) / 1000)) } };
}

/**
 * A public page's link: at most so many requests a minute from one source
 * address, and a ceiling for the link as a whole well above any real
 * candidate traffic, counted before the page does
 * any work. A visitor over its own limit is refused before the link's count,
 * so one visitor cannot spend the link's ceiling for everyone else.
 */
export async function consumeLinkRequest(deps: Deps, token: string, address: string): Promise<void> {
  const visitor = await consume(deps, rateSubjects.linkVisitor(token, address), deps.config.linkRequestsPerAddress);
  if (!visitor.allowed) throw tooManyRequests(visitor, 'requests for one link from one address');
  const link = await consume(deps, rateSubjects.linkToken(token), deps.config.linkRequestsPerToken);
  if (!link.allowed) throw tooManyRequests(link, 'requests for one link');
}

/**
 * Runs a token exchange or refresh unless its caller has failed too often
 * lately. The failure is counted first, then the
 * secret checked, then the count undone if the secret was right: concurrent
 * wrong secrets cannot exceed a limit (of 30 at once, at most the limit are
 * checked, the rest are 429 before any scrypt), and an integration that signs
 * in often is never throttled. Failures count per source address, per
 * (client id, source address), and per client id for everyone only up to a
 * much higher ceiling, so wrong secrets from elsewhere do not lock the owner
 * out of its own servers. A caller refused by one counter takes no place in
 * the others.
 */
export async function throttledAuthentication<T>(deps: Deps, caller: { address: string; clientId?: string }, work: () => Promise<T>): Promise<T> {
  const counters: [string, RatePolicy, string][] = [
    [rateSubjects.authFailuresFromAddress(caller.address), deps.config.authFailuresPerAddress, 'failed sign-ins from one address'],
  ];
  if (caller.clientId !== undefined) {
    counters.push(
      [
        rateSubjects.exchangeFailuresOfClientFromAddress(caller.clientId, caller.address),
        deps.config.exchangeFailuresPerClientAddress,
        'failed sign-ins for one client from one address',
      ],
      [rateSubjects.exchangeFailuresOfClient(caller.clientId), deps.config.exchangeFailuresPerClient, 'failed sign-ins for one client'],
    );
  }
  const taken: ReturnType<typeof rateLimitKeys.window>[] = [];
  const giveBack = () => Promise.all(taken.map((key) => release(deps, key)));
  for (const [subject, policy, what] of counters) {
    const { state, key } = await reserve(deps, subject, policy);
    if (!key) {
      await giveBack();
      throw tooManyRequests(state, what);
    }
    taken.push(key);
  }
  let result: T;
  try {
    result = await work();
  } catch (err) {
    // A wrong secret or refresh token stays counted; anything else (our fault) does not.
    if (!(err instanceof DomainError && (err.code === 'invalid-credentials' || err.code === 'invalid-token'))) await giveBack();
    throw err;
  }
  await giveBack();
  return result;
}
