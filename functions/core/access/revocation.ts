import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { addSeconds } from '../platform/clock.js';
import { chunksOf, queryAll } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { conflictPause } from '../platform/sdk.js';
import { itemExists, part, transact, TransactionFailed, updateItem, type Changes, type Condition } from '../platform/transact.js';
import { clientKeys, ensureAccessRecord, getAccessRecord } from './clients.js';
import { tokenKeys, type GrantItem, type TokenItem } from './token-records.js';

/**
 * Revoking a grant (`POST /auth/revoke`, or a spent refresh token presented
 * again): every live token of the grant is marked, and the client's access
 * record names the grant for as long as one of its access tokens could live,
 * so a function that has seen a token refuses it on the record its request
 * counts on, without reading the token again (tokens.ts).
 */

/** The access record's attributes about revocation all start so (see revokeGrant). */
const REVOKED = 'revoked_';
/** The access record's attribute that says a grant was revoked, until when it matters. */
const revokedAttribute = (grantId: string) => `${REVOKED}${grantId}`;
/** The access record's attribute that voids every access token issued up to it. */
const REVOKED_BEFORE = `${REVOKED}before`;

/** Does the client's access record say this token's grant was revoked? */
export const revokedOnRecord = (record: Record<string, unknown>, token: Pick<TokenItem, 'grant_id' | 'issued_at'>): boolean =>
  record[revokedAttribute(token.grant_id)] !== undefined || (typeof record[REVOKED_BEFORE] === 'string' && token.issued_at <= record[REVOKED_BEFORE]);

/**
 * Revokes a grant and every live token in it. Optimistic: if a refresh adds
 * tokens between our read and our write, the version check fails and we
 * read again; so does a revocation that lost to another on the access
 * record, or clashed with a write in flight there (every request writes it).
 */
export async function revokeGrant(deps: Deps, grantId: string): Promise<void> {
  for (let attempt = 1; attempt <= 8; attempt++) {
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: tokenKeys.grant(grantId), ConsistentRead: true }));
    const grant = Item as GrantItem | undefined;
    if (!grant || grant.revoked_at) return;
    // After the grant's read: a token the version we read covers was issued before this instant.
    const now = deps.clock();

    const [live, record] = await Promise.all([liveTokenHashes(deps, grantId, now), getAccessRecord(deps, grant.client_id)]);
    const revokeToken = (hash: string) =>
      part(`token ${hash}`, updateItem(deps, tokenKeys.token(hash), { set: { revoked_at: now.toISOString() } }, itemExists));
    const [first, ...rest] = chunksOf(live, 98);
    const { changes, condition } = revocationOnRecord(deps, record, grantId, now);
    try {
      await transact(deps, [
        part(
          'grant',
          updateItem(
            deps,
            tokenKeys.grant(grantId),
            { set: { revoked_at: now.toISOString() } },
            { expression: 'version = :v', values: { ':v': grant.version } },
          ),
        ),
        part('record', updateItem(deps, clientKeys.access(grant.client_id), changes, condition)),
        ...(first ?? []).map(revokeToken),
      ]);
    } catch (err) {
      if (!(err instanceof TransactionFailed)) throw err;
      if (err.has('record') && !err.failed.get('record')) await ensureAccessRecord(deps, grant.client_id);
      await conflictPause(attempt);
      continue;
    }
    // The grant is revoked, so no new token can join it; mark the remainder (rare: >98 live tokens).
    for (const hashes of rest) await transact(deps, hashes.map(revokeToken));
    return;
  }
  throw new Error(`Could not revoke grant ${grantId}: it kept changing`);
}

/** Past this many revoked grants on one access record, they give way to one `revoked_before` (below). */
const REVOKED_LIMIT = 50;
/**
 * How much later than this function's clock another's may run: a revoked
 * grant's entry outlives its last access token by this much, and
 * `revoked_before` takes the latest revocation it replaces, as that
 * revoker's clock read it.
 */
const CLOCK_SKEW_SECONDS = 60;

/**
 * A grant's revocation on the client's access record: an entry kept as long
 * as an access token of the grant could live (the access token lifetime from
 * now, and the clock skew), so a request with a token seen before refuses it
 * without reading it; entries past that go. A client revoking in a loop that
 * reaches REVOKED_LIMIT entries gets one `revoked_before` instead of the
 * others: every access token issued until the latest of those revocations
 * stops working (its refresh tokens still work), and the record stays small
 * (every request writes it, and a write is billed by the item's size). The
 * grant revoked now keeps its own entry whatever the others' fate, and
 * `revoked_before` never moves back (its condition): a revocation that lost
 * that race reads the record again.
 */
function revocationOnRecord(deps: Deps, record: Record<string, unknown> | undefined, grantId: string, now: Date): { changes: Changes; condition: Condition } {
  const ttl = deps.config.accessTokenTtlSeconds + CLOCK_SKEW_SECONDS;
  const own = { [revokedAttribute(grantId)]: addSeconds(now, ttl).toISOString() };
  const entries = Object.entries(record ?? {}).filter(([name]) => name.startsWith(REVOKED) && name !== REVOKED_BEFORE && name !== revokedAttribute(grantId));
  const expired = entries.filter(([, until]) => String(until) <= now.toISOString()).map(([name]) => name);
  if (entries.length - expired.length < REVOKED_LIMIT) return { changes: { set: own, remove: expired }, condition: itemExists };
  // An entry's revocation was at its end less the lifetime it was given: usually before now, unless its revoker's clock ran ahead.
  const latest = entries.map(([, until]) => addSeconds(new Date(String(until)), -ttl).toISOString()).reduce((a, b) => (a > b ? a : b), now.toISOString());
  const before = typeof record?.[REVOKED_BEFORE] === 'string' && record[REVOKED_BEFORE] > latest ? record[REVOKED_BEFORE] : latest;
  return {
    changes: { set: { ...own, [REVOKED_BEFORE]: before }, remove: entries.map(([name]) => name) },
    condition: {
      expression: 'attribute_exists(pk) AND (attribute_not_exists(#before) OR #before <= :before)',
      names: { '#before': REVOKED_BEFORE },
      values: { ':before': before },
    },
  };
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
