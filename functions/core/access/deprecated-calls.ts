import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { queryAll } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import { clientKeys } from './clients.js';

/**
 * Who still calls a deprecated family: per client and UTC day, the number of calls and the last one, so
 * an operator knows whom to tell before a brownout or the sunset. One update
 * per authenticated call; the index lists a day's callers of a family.
 */

const CLIENT = TABLE_KEYS.client;
const DAY = GSI1_KEYS.deprecatedCalls;

export const deprecatedCallKeys = {
  day: (clientId: string, family: FamilyId, date: string) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.deprecatedCalls, family, date) }),
  callersOn: (family: FamilyId, date: string, clientId: string) => ({ gsi1pk: key(DAY.pk, family, date), gsi1sk: clientId }),
};

/** Kept a little over a year: long enough to see who called in the months before a sunset. */
const KEEP_DAYS = 400;

export async function recordDeprecatedCall(deps: Deps, clientId: string, family: FamilyId): Promise<void> {
  const now = deps.clock();
  const date = now.toISOString().slice(0, 10);
  const index = deprecatedCallKeys.callersOn(family, date, clientId);
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: deprecatedCallKeys.day(clientId, family, date),
      UpdateExpression:
        'SET entity = :entity, client_id = :client, #family = :family, #date = :date, last_call_at = :now, gsi1pk = :gpk, gsi1sk = :gsk, #ttl = :ttl ADD calls :one',
      ExpressionAttributeNames: { '#family': 'family', '#date': 'date', '#ttl': 'ttl' },
      ExpressionAttributeValues: {
        ':entity': 'deprecated-calls',
        ':client': clientId,
        ':family': family,
        ':date': date,
        ':now': now.toISOString(),
        ':gpk': index.gsi1pk,
        ':gsk': index.gsi1sk,
        ':ttl': toEpochSeconds(addSeconds(now, KEEP_DAYS * 86_400)),
        ':one': 1,
      },
    }),
  );
}

export interface DeprecatedCaller {
  client_id: string;
  last_call_at: string;
  calls: number;
  days: { date: string; calls: number }[];
}

/** The family's callers over the last `days` UTC days (today included), the latest caller first. */
export async function deprecatedCallers(deps: Deps, family: FamilyId, days: number): Promise<DeprecatedCaller[]> {
  const today = Date.parse(deps.clock().toISOString().slice(0, 10));
  const dates = Array.from({ length: days }, (_, i) => new Date(today - i * 86_400_000).toISOString().slice(0, 10));
  const items = (
    await Promise.all(
      dates.map((date) =>
        queryAll(deps, { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': key(DAY.pk, family, date) } }),
      ),
    )
  ).flat() as { client_id: string; date: string; calls: number; last_call_at: string }[];
  const callers = new Map<string, DeprecatedCaller>();
  for (const item of items) {
    const caller = callers.get(item.client_id) ?? { client_id: item.client_id, last_call_at: item.last_call_at, calls: 0, days: [] };
    caller.calls += item.calls;
    caller.days.push({ date: item.date, calls: item.calls });
    if (item.last_call_at > caller.last_call_at) caller.last_call_at = item.last_call_at;
    callers.set(item.client_id, caller);
  }
  for (const caller of callers.values()) caller.days.sort((a, b) => b.date.localeCompare(a.date));
  return [...callers.values()].sort((a, b) => b.last_call_at.localeCompare(a.last_call_at));
}
