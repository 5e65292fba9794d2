import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { clientAuthItem, clientItemTrusts, clientKeys, clientTrustsGeneration, type ClientAccount } from './clients.js';
import { checkItem, itemAbsent, itemExists, part, putItem, transact, TransactionFailed, updateItem, type Condition } from '../platform/transact.js';
import { chunksOf, getMany, queryAll, type ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { randomBytesHex, randomToken, sha256Hex } from '../platform/secrets.js';

/**
 * Bearer tokens. A token is 256 random bits, shown once and stored only as
 * its SHA-256 hash. Every token belongs to a grant: the line of token pairs
 * that descends from one credentials exchange. Refreshing spends the refresh
 * token and adds a pair to the grant; presenting a spent refresh token again
 * revokes the whole grant (OAuth 2.0 Security BCP, refresh token rotation).
 *
 * A grant lives at most `grantMaxLifetimeSeconds` (90 days) from its
 * exchange, whatever its refreshes: no token of it expires later.
 *
 * Authentication is one consistent GetItem on the access token's hash (a
 * grant's revocation is written onto every live token of the grant), then
 * one consistent GetItem of the client, projected to its grant generation
 * and disabled flag. That second read is what lets rotating a client's
 * secret or disabling the client end every grant of the client at once, in
 * one write to the client item, however many grants it has: writing the
 * revocation onto every token instead would keep authentication to one read
 * but make rotation a sweep over every grant of the last 90 days (an
 * integration that logs in per request has thousands), not atomic, and
 * leaving tokens alive if it stopped half way. Refreshing checks the client
 * inside the transaction it already writes, at no extra round trip.
 */

type TokenKind = 'access' | 'refresh';

interface TokenItem {
  pk: string;
  sk: string;
  entity: 'token';
  kind: TokenKind;
  client_id: string;
  family: FamilyId;
  grant_id: string;
  /** The client's grant generation when the grant began; absent on tokens from before generations: 0. */
  client_generation?: number;
  /** No token of the grant lives past this; absent on tokens from before the cap. */
  grant_expires_at?: string;
  issued_at: string;
  expires_at: string;
  ttl: number;
  revoked_at?: string;
  spent_at?: string;
}

interface GrantItem {
  pk: string;
  sk: string;
  entity: 'grant';
  grant_id: string;
  client_id: string;
  family: FamilyId;
  version: number;
  created_at: string;
  expires_at: string;
  ttl: number;
  revoked_at?: string;
}

const TOKEN = TABLE_KEYS.token;
const GRANT = TABLE_KEYS.grant;
export const tokenKeys = {
  token: (hash: string) => ({ pk: key(TOKEN.pk, hash), sk: TOKEN.sk.token }),
  grant: (grantId: string) => ({ pk: key(GRANT.pk, grantId), sk: GRANT.sk.grant }),
  /** One small item per token under its grant, so revoking can find them all. */
  grantMember: (grantId: string, hash: string) => ({ pk: key(GRANT.pk, grantId), sk: key(GRANT.sk.member, hash) }),
  grantMemberPrefix: GRANT.sk.member,
};

export interface TokenPair {
  token_type: 'Bearer';
  access_token: string;
  expires_in: number;
  refresh_token: string;
  refresh_expires_in: number;
}

export interface AccessContext {
  clientId: string;
  family: FamilyId;
  grantId: string;
  issuedAt: string;
  expiresAt: string;
}

const invalidToken = (detail = 'The token is missing, unknown, expired or revoked') =>
  new DomainError('invalid-token', detail);

/** TTL is cleanup only: a token whose expires_at has passed is gone whether or not DynamoDB has deleted it. */
const isLive = (item: TokenItem, now: Date) => Date.parse(item.expires_at) > now.getTime() && !item.revoked_at;

/** What every token of a grant carries. */
interface GrantLine {
  grantId: string;
  clientId: string;
  family: FamilyId;
  generation: number;
  expiresAt: Date;
}

function newTokenWrites(deps: Deps, grant: GrantLine, now: Date) {
  const access = randomToken(32);
  const refresh = randomToken(32);
  const issuedAt = now.toISOString();
  const { accessTokenTtlSeconds, refreshTokenTtlSeconds } = deps.config;
  // Whole seconds: the lifetime, or what is left of the grant if that is shorter.
  const lifetime = (ttl: number) => Math.max(0, Math.min(ttl, Math.floor((grant.expiresAt.getTime() - now.getTime()) / 1000)));
  const accessTtl = lifetime(accessTokenTtlSeconds);
  const refreshTtl = lifetime(refreshTokenTtlSeconds);
  const items: TokenItem[] = [
    { kind: 'access' as const, hash: sha256Hex(access), ttl: accessTtl },
    { kind: 'refresh' as const, hash: sha256Hex(refresh), ttl: refreshTtl },
  ].map(({ kind, hash, ttl }) => {
    const expires = addSeconds(now, ttl);
    return {
      ...tokenKeys.token(hash),
      entity: 'token',
      kind,
      client_id: grant.clientId,
      family: grant.family,
      grant_id: grant.grantId,
      client_generation: grant.generation,
      grant_expires_at: grant.expiresAt.toISOString(),
      issued_at: issuedAt,
      expires_at: expires.toISOString(),
      ttl: toEpochSeconds(expires),
    };
  });
  const puts = items.flatMap((item) => [
    part(`new ${item.kind} token`, putItem(deps, item as unknown as Record<string, unknown>, itemAbsent)),
    part(
      `${item.kind} member`,
      putItem(deps, {
        ...tokenKeys.grantMember(grant.grantId, item.pk.slice(TOKEN.pk.length)),
        entity: 'grant-member',
        expires_at: item.expires_at,
        ttl: item.ttl,
      }),
    ),
  ]);
  const pair: TokenPair = {
    token_type: 'Bearer',
    access_token: access,
    expires_in: accessTtl,
    refresh_token: refresh,
    refresh_expires_in: refreshTtl,
  };
  return { puts, pair };
}

/** Named condition: a refresh token is spent once, and never after revocation. */
const refreshUnspent: Condition = { expression: 'attribute_not_exists(spent_at) AND attribute_not_exists(revoked_at)' };
/** Named condition: the grant exists and has not been revoked. */
const grantOpen: Condition = { expression: 'attribute_exists(pk) AND attribute_not_exists(revoked_at)' };

/** The client must still be enabled and at the generation the grant began under. */
const clientCheck = (deps: Deps, clientId: string, generation: number) => part('client', checkItem(deps, clientKeys.item(clientId), clientTrustsGeneration(generation)));

/**
 * Starts a new grant for a client that has just proven its credentials. If
 * the secret was rotated or the client disabled since they were checked, the
 * exchange fails as bad credentials would.
 */
export async function issueTokenPair(deps: Deps, client: Pick<ClientAccount, 'clientId' | 'grantGeneration'>, family: FamilyId): Promise<TokenPair> {
  const now = deps.clock();
  const line: GrantLine = {
    grantId: randomBytesHex(16),
    clientId: client.clientId,
    family,
    generation: client.grantGeneration,
    expiresAt: addSeconds(now, deps.config.grantMaxLifetimeSeconds),
  };
  const grant: GrantItem = {
    ...tokenKeys.grant(line.grantId),
    entity: 'grant',
    grant_id: line.grantId,
    client_id: line.clientId,
    family,
    version: 1,
    created_at: now.toISOString(),
    expires_at: line.expiresAt.toISOString(),
    ttl: toEpochSeconds(line.expiresAt),
  };
  const { puts, pair } = newTokenWrites(deps, line, now);
  await transact(deps, [clientCheck(deps, line.clientId, line.generation), part('grant', putItem(deps, { ...grant }, itemAbsent)), ...puts], {
    client: new DomainError('invalid-credentials', 'The client id or secret is not valid'),
  });
  return pair;
}

/**
 * Access tokens this container has resolved, by hash (the latest 1,000):
 * only to know, on the next request, whose token it is and which client
 * item to read beside it. Nothing is trusted from here: each request reads
 * the token and the client again.
 */
const seenTokens = new Map<string, TokenItem>();
function remember(hash: string, item: TokenItem) {
  seenTokens.delete(hash);
  seenTokens.set(hash, item);
  if (seenTokens.size > 1000) seenTokens.delete(seenTokens.keys().next().value!);
}

async function getToken(deps: Deps, token: string): Promise<TokenItem | undefined> {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: tokenKeys.token(sha256Hex(token)), ConsistentRead: true }),
  );
  return Item as TokenItem | undefined;
}

/** Resolves a bearer access token issued by this family, or throws invalid-token. */
export async function authenticate(deps: Deps, accessToken: string, family: FamilyId): Promise<AccessContext> {
  return (await authenticateAlongside(deps, accessToken, family, async () => undefined)).caller;
}

/**
 * Authenticates, running `alongside` (the per-client rate limit) at the same
 * time as the check that the client still trusts the token's generation: a
 * request costs two round trips, not three. `alongside` runs for a revoked
 * client too, whose request is then refused. `prefetch`: items the operation
 * reads first, read in the same batch as the token and its client (a hold
 * to release), before anyone knows whose they are: the operation checks.
 */
export async function authenticateAlongside<T>(
  deps: Deps,
  accessToken: string,
  family: FamilyId,
  alongside: (clientId: string) => Promise<T>,
  prefetch: ItemKey[] = [],
): Promise<{ caller: AccessContext; alongside: T; client: Record<string, unknown>; prefetched: (Record<string, unknown> | undefined)[] }> {
  const hash = sha256Hex(accessToken);
  const usable = (t: TokenItem | undefined): t is TokenItem => !!t && t.kind === 'access' && t.family === family && isLive(t, deps.clock());
  const known = seenTokens.get(hash);
  let item: TokenItem | undefined;
  let client: Record<string, unknown> | undefined;
  let result: T;
  let read: Record<string, unknown>[];
  if (usable(known)) {
    // A token this container has seen: whose it is never changes, so its revocation and its client's trust are read together, beside `alongside`.
    const tokenKey = tokenKeys.token(hash);
    const clientKey = clientKeys.item(known.client_id);
    [read, result] = await Promise.all([getMany(deps, [tokenKey, clientKey, ...prefetch]), alongside(known.client_id)]);
    item = read.find(isKey(tokenKey)) as TokenItem | undefined;
    client = read.find(isKey(clientKey));
  } else {
    item = await getToken(deps, accessToken);
    if (!usable(item)) throw invalidToken();
    [client, result, read] = await Promise.all([clientAuthItem(deps, item.client_id), alongside(item.client_id), prefetch.length ? getMany(deps, prefetch) : []]);
  }
  if (!usable(item) || !client || !clientItemTrusts(client, item.client_generation ?? 0)) {
    seenTokens.delete(hash);
    throw invalidToken();
  }
  remember(hash, item);
  return {
    caller: { clientId: item.client_id, family: item.family, grantId: item.grant_id, issuedAt: item.issued_at, expiresAt: item.expires_at },
    alongside: result,
    client,
    prefetched: prefetch.map((k) => read.find(isKey(k))),
  };
}

const isKey = (k: ItemKey) => (item: Record<string, unknown>) => item.pk === k.pk && item.sk === k.sk;

/**
 * Spends a refresh token for a new pair. A spent token presented again means
 * it leaked (or a client raced itself): the whole grant is revoked.
 */
export async function refreshTokenPair(deps: Deps, refreshToken: string, family: FamilyId): Promise<TokenPair> {
  const now = deps.clock();
  const item = await getToken(deps, refreshToken);
  if (!item || item.kind !== 'refresh' || item.family !== family || !isLive(item, now)) throw invalidToken();
  if (item.spent_at) return rejectReuse(deps, item.grant_id);
  const generation = item.client_generation ?? 0;
  const line: GrantLine = {
    grantId: item.grant_id,
    clientId: item.client_id,
    family,
    generation,
    // Tokens from before the cap: the grant ends at most that long after this refresh token was issued.
    expiresAt: new Date(item.grant_expires_at ?? addSeconds(new Date(item.issued_at), deps.config.grantMaxLifetimeSeconds)),
  };
  const { puts, pair } = newTokenWrites(deps, line, now);
  try {
    await transact(
      deps,
      [
        part('spent token', updateItem(deps, tokenKeys.token(sha256Hex(refreshToken)), { set: { spent_at: now.toISOString() } }, refreshUnspent)),
        // Bumping the version makes a concurrent revocation re-read the grant's tokens.
        part('grant', updateItem(deps, tokenKeys.grant(item.grant_id), { add: { version: 1 } }, grantOpen)),
        clientCheck(deps, item.client_id, generation),
        ...puts,
      ],
      { grant: invalidToken(), client: invalidToken() },
    );
  } catch (err) {
    // Lost a race with another use of the same refresh token: that is reuse too.
    if (err instanceof TransactionFailed && err.has('spent token')) return rejectReuse(deps, item.grant_id);
    throw err;
  }
  return pair;
}

async function rejectReuse(deps: Deps, grantId: string): Promise<never> {
  await revokeGrant(deps, grantId);
  throw invalidToken('The refresh token was already used; every token of its grant has been revoked');
}

/**
 * Revokes a grant and every live token in it. Optimistic: if a refresh adds
 * tokens between our read and our write, the version check fails and we
 * read again.
 */
export async function revokeGrant(deps: Deps, grantId: string): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const now = deps.clock();
    const { Item } = await deps.db.send(
      new GetCommand({ TableName: deps.table, Key: tokenKeys.grant(grantId), ConsistentRead: true }),
    );
    const grant = Item as GrantItem | undefined;
    if (!grant || grant.revoked_at) return;

    const live = await liveTokenHashes(deps, grantId, now);
    const revokeToken = (hash: string) => part(`token ${hash}`, updateItem(deps, tokenKeys.token(hash), { set: { revoked_at: now.toISOString() } }, itemExists));
    const [first, ...rest] = chunksOf(live, 99);
    try {
      await transact(deps, [
        part('grant', updateItem(deps, tokenKeys.grant(grantId), { set: { revoked_at: now.toISOString() } }, { expression: 'version = :v', values: { ':v': grant.version } })),
        ...(first ?? []).map(revokeToken),
      ]);
    } catch (err) {
      if (err instanceof TransactionFailed && err.has('grant')) continue;
      throw err;
    }
    // The grant is revoked, so no new token can join it; mark the remainder (rare: >99 live tokens).
    for (const hashes of rest) await transact(deps, hashes.map(revokeToken));
    return;
  }
  throw new Error(`Could not revoke grant ${grantId}: it kept changing`);
}

async function liveTokenHashes(deps: Deps, grantId: string, now: Date): Promise<string[]> {
  const members = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'expires_at > :now',
    ExpressionAttributeValues: {
      ':pk': tokenKeys.grant(grantId).pk,
      ':prefix': tokenKeys.grantMemberPrefix,
      ':now': now.toISOString(),
    },
    ConsistentRead: true,
  });
  return members.map((member) => String(member.sk).slice(tokenKeys.grantMemberPrefix.length));
}
