import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { clientItemTrusts, clientKeys, clientTrustsGeneration, type ClientAccount } from './clients.js';
import { countRequest, refusedInMemory, rememberRefusal, type RateLimitState } from './rate-limit.js';
import { revokedOnRecord, revokeGrant } from './revocation.js';
import { tokenKeys, type GrantItem, type TokenItem } from './token-records.js';
import { checkItem, itemAbsent, part, putItem, transact, TransactionFailed, updateItem, type Condition } from '../platform/transact.js';
import { getMany, type ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { FAMILIES, type FamilyId } from '../platform/families.js';
import { randomBytesHex, randomToken, sha256Hex } from '../platform/secrets.js';
import * as TABLE_KEYS from '../platform/table-keys.js';

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
 * Authentication reads the access token's item by its hash (once per
 * function instance: what a token item says never changes but for its
 * revocation), then makes the one write that counts the request on the
 * client's access record (clients.ts, rate-limit.ts), which returns the
 * client's grant generation, disabled flag and the grants revoked lately.
 * The generation is what lets rotating a client's secret or disabling the
 * client end every grant of the client at once, in one transaction,
 * however many grants it has: writing the revocation onto every token
 * instead would make rotation a sweep over every grant of the last 90 days
 * (an integration that logs in per request has thousands), not atomic, and
 * leaving tokens alive if it stopped half way. Revoking a grant writes onto
 * its tokens and onto the access record, where it stays as long as an
 * access token of the grant could live. Refreshing checks the client inside
 * the transaction it already writes, at no extra round trip.
 */

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

const invalidToken = (detail = 'The token is missing, unknown, expired or revoked') => new DomainError('invalid-token', detail);

const otherFamilyToken = (issuer: FamilyId, wanted: FamilyId): string =>
  `This access token was issued by the ${FAMILIES[issuer].title} (${FAMILIES[issuer].prefix}); this API takes tokens from POST ${FAMILIES[wanted].prefix}/auth/token`;

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
        ...tokenKeys.grantMember(grant.grantId, item.pk.slice(TABLE_KEYS.token.pk.length)),
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
const clientCheck = (deps: Deps, clientId: string, generation: number) =>
  part('client', checkItem(deps, clientKeys.item(clientId), clientTrustsGeneration(generation)));

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
 * Access tokens this function instance has resolved, by hash (the latest
 * 1,000). A token item's fields never change once written, but for its
 * revocation, which the access record also carries: a request with a
 * token seen before reads nothing but the record it counts on.
 */
const seenTokens = new Map<string, TokenItem>();
function remember(hash: string, item: TokenItem) {
  seenTokens.delete(hash);
  seenTokens.set(hash, item);
  if (seenTokens.size > 1000) seenTokens.delete(seenTokens.keys().next().value!);
}

async function getToken(deps: Deps, token: string): Promise<TokenItem | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: tokenKeys.token(sha256Hex(token)), ConsistentRead: true }));
  return Item as TokenItem | undefined;
}

/** Does the client, as its access record says, still trust this token? */
const recordTrusts = (record: Record<string, unknown> | undefined, token: TokenItem): boolean =>
  clientItemTrusts(record, token.client_generation ?? 0) && !revokedOnRecord(record!, token);

/**
 * Authenticates a request and counts it against the client's limit for
 * `countedFamily` (a facade counts apart from the family whose tokens it
 * takes). A token seen before costs one round trip, the count, which
 * returns the client's access record; `prefetch`: items the operation reads
 * first (a hold to release), read beside it before anyone knows whose they
 * are: the operation checks. A revoked client's request is counted too,
 * then refused.
 */
export async function authenticateRequest(
  deps: Deps,
  accessToken: string,
  family: FamilyId,
  countedFamily: FamilyId,
  prefetch: ItemKey[] = [],
): Promise<{ caller: AccessContext; rateLimit: RateLimitState; client: Record<string, unknown>; prefetched: (Record<string, unknown> | undefined)[] }> {
  const hash = sha256Hex(accessToken);
  const usable = (t: TokenItem | undefined): t is TokenItem => !!t && t.kind === 'access' && t.family === family && isLive(t, deps.clock());
  const known = seenTokens.get(hash);
  const item = usable(known) ? known : await getToken(deps, accessToken);
  if (!usable(item)) {
    seenTokens.delete(hash);
    // A live token of another family: say whose it is, so an integrator sees the mix-up at once.
    const found = item as TokenItem | undefined;
    if (found?.kind === 'access' && found.family !== family && isLive(found, deps.clock())) throw invalidToken(otherFamilyToken(found.family, family));
    throw invalidToken();
  }
  const caller = { clientId: item.client_id, family: item.family, grantId: item.grant_id, issuedAt: item.issued_at, expiresAt: item.expires_at };
  // A token seen before whose client this container found over its limit: refused again without a write.
  const refused = known === item ? refusedInMemory(item.client_id, countedFamily, deps.clock()) : undefined;
  if (refused) return { caller, rateLimit: refused.state, client: refused.record ?? {}, prefetched: prefetch.map(() => undefined) };
  const [{ record, state }, read] = await Promise.all([countRequest(deps, item.client_id, countedFamily), prefetch.length ? getMany(deps, prefetch) : []]);
  rememberRefusal(item.client_id, countedFamily, state, record, deps.clock());
  if (!recordTrusts(record, item)) {
    seenTokens.delete(hash);
    throw invalidToken();
  }
  remember(hash, item);
  return {
    caller,
    rateLimit: state,
    client: record!,
    prefetched: prefetch.map((k) => read.find((i) => i.pk === k.pk && i.sk === k.sk)),
  };
}

/** Resolves a bearer access token issued by this family, or throws invalid-token; the request is counted. */
export async function authenticate(deps: Deps, accessToken: string, family: FamilyId): Promise<AccessContext> {
  return (await authenticateRequest(deps, accessToken, family, family)).caller;
}

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
