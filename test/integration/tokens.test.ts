import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  clientKeys,
  createClient,
  getAccessRecord,
  getClient,
  rotateClientSecret,
  setClientEnabled,
  verifyClientCredentials,
  type ClientAccount,
} from '../../functions/core/access/clients.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { sha256Hex } from '../../functions/core/platform/secrets.js';
import { revokeGrant } from '../../functions/core/access/revocation.js';
import { tokenKeys } from '../../functions/core/access/token-records.js';
import { authenticate, issueTokenPair, refreshTokenPair } from '../../functions/core/access/tokens.js';
import { testClock, testDeps, type TestClock } from '../support/env.js';
import { cancelledFor, withFaults, withWireFaults, writeConflict } from '../support/faults.js';

let deps: Deps;
let clock: TestClock;
let client: ClientAccount;
let clientId: string;
let clientSecret: string;

beforeAll(async () => {
  clock = testClock();
  deps = await testDeps({ clock });
  ({ client, clientSecret } = await createClient(deps, { name: 'Token Test Agency' }));
  clientId = client.clientId;
});

const code = async (promise: Promise<unknown>) => {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    if (err instanceof DomainError) return err.code;
    throw err;
  }
};

describe('client credentials', () => {
  it('accepts the right secret', async () => {
    await expect(verifyClientCredentials(deps, clientId, clientSecret)).resolves.toMatchObject({ clientId });
  });

  it('gives the same answer for an unknown client id as for a wrong secret', async () => {
    const wrongSecret = verifyClientCredentials(deps, clientId, 'cs_wrong').catch((e: DomainError) => [e.code, e.message]);
    const unknownId = verifyClientCredentials(deps, 'cl_nobody', clientSecret).catch((e: DomainError) => [e.code, e.message]);
    const [a, b] = await Promise.all([wrongSecret, unknownId]);
    expect(a).toEqual(['invalid-credentials', 'The client id or secret is not valid']);
    expect(b).toEqual(a);
  });
});

describe('access tokens', () => {
  it('are stored only as their SHA-256 hash', async () => {
    const pair = await issueTokenPair(deps, client, 'clinical-interview');
    const byHash = await deps.db.send(new GetCommand({ TableName: deps.table, Key: tokenKeys.token(sha256Hex(pair.access_token)) }));
    expect(byHash.Item).toMatchObject({ kind: 'access', client_id: clientId });
    expect(JSON.stringify(byHash.Item)).not.toContain(pair.access_token);
    const byValue = await deps.db.send(new GetCommand({ TableName: deps.table, Key: tokenKeys.token(pair.access_token) }));
    expect(byValue.Item).toBeUndefined();
  });

  it('work until the last second of their hour and not at 3600 s', async () => {
    clock.set('2026-11-21T10:00:00.000Z');
    const pair = await issueTokenPair(deps, client, 'clinical-interview');
    expect(pair).toMatchObject({ token_type: 'Bearer', expires_in: 3600, refresh_expires_in: 2592000 });
    clock.advance(3599);
    await expect(authenticate(deps, pair.access_token, 'clinical-interview')).resolves.toMatchObject({
      clientId,
      family: 'clinical-interview',
      expiresAt: '2026-11-21T11:00:00.000Z',
    });
    clock.advance(1);
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('invalid-token');
  });

  it('are valid only in the family that issued them', async () => {
    const pair = await issueTokenPair(deps, client, 'portal-v2');
    expect(await code(authenticate(deps, pair.access_token, 'portal-v2'))).toBe('ok');
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('invalid-token');
  });

  it('cannot be used as refresh tokens, nor refresh tokens as access tokens', async () => {
    const pair = await issueTokenPair(deps, client, 'portal-v2');
    expect(await code(refreshTokenPair(deps, pair.access_token, 'portal-v2'))).toBe('invalid-token');
    expect(await code(authenticate(deps, pair.refresh_token, 'portal-v2'))).toBe('invalid-token');
  });
});

describe('refresh rotation', () => {
  it('spends the refresh token and hands out a working new pair', async () => {
    const first = await issueTokenPair(deps, client, 'clinical-interview');
    const second = await refreshTokenPair(deps, first.refresh_token, 'clinical-interview');
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect(await code(authenticate(deps, second.access_token, 'clinical-interview'))).toBe('ok');
    const third = await refreshTokenPair(deps, second.refresh_token, 'clinical-interview');
    expect(await code(authenticate(deps, third.access_token, 'clinical-interview'))).toBe('ok');
  });

  it('revokes every descendant when a spent refresh token comes back', async () => {
    const first = await issueTokenPair(deps, client, 'clinical-interview');
    const second = await refreshTokenPair(deps, first.refresh_token, 'clinical-interview');
    const third = await refreshTokenPair(deps, second.refresh_token, 'clinical-interview');

    expect(await code(refreshTokenPair(deps, first.refresh_token, 'clinical-interview'))).toBe('invalid-token');

    for (const token of [first.access_token, second.access_token, third.access_token]) {
      expect(await code(authenticate(deps, token, 'clinical-interview'))).toBe('invalid-token');
    }
    expect(await code(refreshTokenPair(deps, third.refresh_token, 'clinical-interview'))).toBe('invalid-token');
  });

  it('lets one of two concurrent uses of the same refresh token win, and then revokes the grant', async () => {
    const first = await issueTokenPair(deps, client, 'clinical-interview');
    const results = await Promise.allSettled([
      refreshTokenPair(deps, first.refresh_token, 'clinical-interview'),
      refreshTokenPair(deps, first.refresh_token, 'clinical-interview'),
    ]);
    const winners = results.filter((r) => r.status === 'fulfilled');
    expect(winners.length).toBeLessThanOrEqual(1);
    // Whoever won, the race is reuse: nothing issued from that grant works any more.
    for (const winner of winners) {
      const pair = (winner as PromiseFulfilledResult<{ access_token: string }>).value;
      expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('invalid-token');
    }
  });

  it('refuses a refresh token after its 30 days', async () => {
    clock.set('2026-11-21T10:00:00.000Z');
    const pair = await issueTokenPair(deps, client, 'portal-v2');
    clock.advance(2_592_000);
    expect(await code(refreshTokenPair(deps, pair.refresh_token, 'portal-v2'))).toBe('invalid-token');
  });

  it('refuses a refresh token from another family', async () => {
    const pair = await issueTokenPair(deps, client, 'portal-v2');
    expect(await code(refreshTokenPair(deps, pair.refresh_token, 'clinical-interview'))).toBe('invalid-token');
    // ...and that refusal did not spend it.
    expect(await code(refreshTokenPair(deps, pair.refresh_token, 'portal-v2'))).toBe('ok');
  });
});

describe('revocation', () => {
  it('stops the access token and its refresh token at once', async () => {
    const pair = await issueTokenPair(deps, client, 'clinical-interview');
    const { grantId } = await authenticate(deps, pair.access_token, 'clinical-interview');
    await revokeGrant(deps, grantId);
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('invalid-token');
    expect(await code(refreshTokenPair(deps, pair.refresh_token, 'clinical-interview'))).toBe('invalid-token');
  });

  it("leaves the client's other grants alone", async () => {
    const kept = await issueTokenPair(deps, client, 'clinical-interview');
    const revoked = await issueTokenPair(deps, client, 'clinical-interview');
    await revokeGrant(deps, (await authenticate(deps, revoked.access_token, 'clinical-interview')).grantId);
    expect(await code(authenticate(deps, kept.access_token, 'clinical-interview'))).toBe('ok');
  });
});

describe('revocation on the access record', () => {
  /** The grants a client's access record names as revoked. */
  const revokedOn = async (id: string) =>
    Object.keys((await getAccessRecord(deps, id)) ?? {})
      .filter((name) => name.startsWith('revoked_'))
      .sort();
  /** 50 grants revoked in the last hour on the client's record, as a client revoking in a loop leaves them. */
  const revokedFifty = async (id: string) => {
    const until = new Date(clock().getTime() + 1800_000).toISOString();
    const names = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`#r${i}`, `revoked_${String(i).padStart(32, '0')}`]));
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: clientKeys.access(id),
        UpdateExpression: `SET ${Object.keys(names)
          .map((n) => `${n} = :until`)
          .join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':until': until },
      }),
    );
  };
  const tokenItem = async (token: string) =>
    (await deps.db.send(new GetCommand({ TableName: deps.table, Key: tokenKeys.token(sha256Hex(token)) }))).Item as { issued_at: string };
  const withFault = (hooks: Parameters<typeof withFaults>[1]) => withFaults(deps, hooks);

  it('names a revoked grant for as long as one of its access tokens could live, and a minute for clocks that differ', async () => {
    const { client: account } = await createClient(deps, { name: 'Revoking Agency' });
    clock.set('2026-11-21T10:00:00.000Z');
    const first = await issueTokenPair(deps, account, 'clinical-interview');
    const second = await issueTokenPair(deps, account, 'clinical-interview');
    const firstGrant = (await authenticate(deps, first.access_token, 'clinical-interview')).grantId;
    const secondGrant = (await authenticate(deps, second.access_token, 'clinical-interview')).grantId;
    await revokeGrant(deps, firstGrant);
    expect(await revokedOn(account.clientId)).toEqual([`revoked_${firstGrant}`]);
    expect(await getAccessRecord(deps, account.clientId)).toMatchObject({ [`revoked_${firstGrant}`]: '2026-11-21T11:01:00.000Z' });
    // An hour and a minute on, the first grant's access tokens have all expired: its entry goes when the next is written.
    clock.advance(3660);
    await revokeGrant(deps, secondGrant);
    expect(await revokedOn(account.clientId)).toEqual([`revoked_${secondGrant}`]);
  });

  it('gives way to one revoked_before past 50 revoked grants: every access token issued until then stops, refresh tokens still work', async () => {
    const { client: account } = await createClient(deps, { name: 'Looping Agency' });
    const kept = await issueTokenPair(deps, account, 'clinical-interview');
    const looped = await issueTokenPair(deps, account, 'clinical-interview');
    expect(await code(authenticate(deps, kept.access_token, 'clinical-interview'))).toBe('ok');
    await revokedFifty(account.clientId);
    const loopedGrant = (await authenticate(deps, looped.access_token, 'clinical-interview')).grantId;
    await revokeGrant(deps, loopedGrant);
    // The grant revoked now keeps its own entry.
    expect(await revokedOn(account.clientId)).toEqual([`revoked_${loopedGrant}`, 'revoked_before'].sort());
    expect(await code(authenticate(deps, kept.access_token, 'clinical-interview'))).toBe('invalid-token');
    clock.advance(1);
    const renewed = await refreshTokenPair(deps, kept.refresh_token, 'clinical-interview');
    expect(await code(authenticate(deps, renewed.access_token, 'clinical-interview'))).toBe('ok');
  });

  it('keeps the revoked grant refused past revoked_before even when its token was issued after that instant (a revoker whose clock runs behind)', async () => {
    const { client: account } = await createClient(deps, { name: 'Skewed Agency' });
    await revokedFifty(account.clientId);
    const pair = await issueTokenPair(deps, account, 'clinical-interview');
    // This instance has seen the token: from now on it reads only the record.
    const grant = (await authenticate(deps, pair.access_token, 'clinical-interview')).grantId;
    await revokeGrant({ ...deps, clock: () => new Date(clock().getTime() - 30_000) }, grant);
    expect(String((await getAccessRecord(deps, account.clientId))!.revoked_before) < (await tokenItem(pair.access_token)).issued_at).toBe(true);
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('invalid-token');
  });

  it('never moves revoked_before back: a revocation that read the record before a later one wrote it reads it again', async () => {
    const { client: account } = await createClient(deps, { name: 'Racing Revoker Agency' });
    await revokedFifty(account.clientId);
    const pair = await issueTokenPair(deps, account, 'clinical-interview');
    const grant = (await authenticate(deps, pair.access_token, 'clinical-interview')).grantId;
    const later = new Date(clock().getTime() + 5_000).toISOString();
    // Just after this revocation reads the record, another (its clock 5 s ahead) gives way to revoked_before.
    let raced = false;
    const racing = withFault({
      after: async (command) => {
        if (raced || command.constructor.name !== 'GetCommand' || command.input.Key?.sk !== clientKeys.access(account.clientId).sk) return;
        raced = true;
        await deps.db.send(
          new UpdateCommand({
            TableName: deps.table,
            Key: clientKeys.access(account.clientId),
            UpdateExpression: 'SET revoked_before = :t',
            ExpressionAttributeValues: { ':t': later },
          }),
        );
      },
    });
    await revokeGrant(racing, grant);
    expect(raced).toBe(true);
    expect((await getAccessRecord(deps, account.clientId))!.revoked_before).toBe(later);
  });

  it('tries again when the record was being written in a transaction (real DynamoDB refuses the write; the emulator never does)', async () => {
    const { client: account } = await createClient(deps, { name: 'Busy Agency' });
    const pair = await issueTokenPair(deps, account, 'clinical-interview');
    const conflicts = { count: 0, revocation: 0, trust: 0 };
    const access = clientKeys.access(account.clientId).sk;
    // The input as it goes out, marshalled: a key's sort key is `{ S: … }`.
    const onRecord = (key: { sk?: { S?: string } } | undefined) => key?.sk?.S === access;
    const busy = withWireFaults(deps, (input) => {
      if (input.UpdateExpression && onRecord(input.Key) && conflicts.count++ === 0) throw writeConflict();
      const items = (input.TransactItems ?? []) as { Update?: { Key: { sk?: { S?: string } } } }[];
      const at = items.findIndex((i) => onRecord(i.Update?.Key));
      if (at >= 0 && conflicts[items.length === 2 ? 'trust' : 'revocation']++ === 0) throw cancelledFor(items, at);
    });
    expect(await code(authenticate(busy, pair.access_token, 'clinical-interview'))).toBe('ok');
    await revokeGrant(busy, (await authenticate(busy, pair.access_token, 'clinical-interview')).grantId);
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('invalid-token');
    await rotateClientSecret(busy, account.clientId);
    expect(await getAccessRecord(deps, account.clientId)).toMatchObject({ grant_generation: 1 });
    expect(conflicts).toMatchObject({ revocation: 2, trust: 2 });
    expect(conflicts.count).toBeGreaterThanOrEqual(3);
  });

  it('a record left behind by a change to the client item alone is its copy again after the next trust change', async () => {
    const { client: account } = await createClient(deps, { name: 'Old CLI Agency' });
    // An operator CLI of the version before access records rotates: the item alone moves on.
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: clientKeys.item(account.clientId),
        UpdateExpression: 'ADD grant_generation :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );
    await setClientEnabled(deps, account.clientId, false);
    await setClientEnabled(deps, account.clientId, true);
    expect(await getAccessRecord(deps, account.clientId)).toMatchObject({ grant_generation: 2 });
    const pair = await issueTokenPair(deps, (await getClient(deps, account.clientId))!, 'clinical-interview');
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('ok');
  });

  it('a client stored before access records gets one on its first request, copied from its item', async () => {
    const { client: account } = await createClient(deps, { name: 'Older Agency' });
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: clientKeys.item(account.clientId),
        UpdateExpression: 'SET grant_generation = :g',
        ExpressionAttributeValues: { ':g': 3 },
      }),
    );
    await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: clientKeys.access(account.clientId) }));
    const pair = await issueTokenPair(deps, (await getClient(deps, account.clientId))!, 'clinical-interview');
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('ok');
    expect(await getAccessRecord(deps, account.clientId)).toMatchObject({ grant_generation: 3, clinical_interview_requests: 1 });
    // And a trust change reaches it: disabling ends the token.
    await setClientEnabled(deps, account.clientId, false);
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('invalid-token');
  });

  it('a trust change on a client stored before access records makes its record first', async () => {
    const { client: account } = await createClient(deps, { name: 'Oldest Agency' });
    const pair = await issueTokenPair(deps, account, 'clinical-interview');
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('ok');
    await deps.db.send(new DeleteCommand({ TableName: deps.table, Key: clientKeys.access(account.clientId) }));
    await rotateClientSecret(deps, account.clientId);
    expect(await getAccessRecord(deps, account.clientId)).toMatchObject({ grant_generation: 1 });
    expect(await code(authenticate(deps, pair.access_token, 'clinical-interview'))).toBe('invalid-token');
  });
});

describe('grant lifetime', () => {
  const DAY = 86_400;

  it('ends 90 days after the exchange, however often the grant is refreshed', async () => {
    clock.set('2026-01-05T09:00:00.000Z');
    let pair = await issueTokenPair(deps, client, 'portal-v2');
    // Refreshed every 29 days, each refresh token would otherwise live 30 more days.
    for (const day of [29, 58, 87]) {
      clock.set(new Date(Date.parse('2026-01-05T09:00:00.000Z') + day * DAY * 1000).toISOString());
      pair = await refreshTokenPair(deps, pair.refresh_token, 'portal-v2');
    }
    // On day 87 three days are left: the new pair says so and lives no longer.
    expect(pair).toMatchObject({ expires_in: 3600, refresh_expires_in: 3 * DAY });
    clock.advance(3 * DAY - 3601);
    const last = await refreshTokenPair(deps, pair.refresh_token, 'portal-v2');
    expect(last).toMatchObject({ expires_in: 3600, refresh_expires_in: 3601 });
    await expect(authenticate(deps, last.access_token, 'portal-v2')).resolves.toMatchObject({ expiresAt: '2026-04-05T08:59:59.000Z' });
    clock.advance(3600);
    const final = await refreshTokenPair(deps, last.refresh_token, 'portal-v2');
    // One second of the grant left: an access token that lives one second, and then nothing.
    expect(final).toMatchObject({ expires_in: 1, refresh_expires_in: 1 });
    clock.advance(1);
    expect(clock().toISOString()).toBe('2026-04-05T09:00:00.000Z');
    expect(await code(authenticate(deps, final.access_token, 'portal-v2'))).toBe('invalid-token');
    expect(await code(refreshTokenPair(deps, final.refresh_token, 'portal-v2'))).toBe('invalid-token');
  });

  it('is configuration', async () => {
    const short = await testDeps({ clock, config: { grantMaxLifetimeSeconds: 7200 } });
    const { client: account } = await createClient(short, { name: 'Short Grants' });
    const pair = await issueTokenPair(short, account, 'clinical-interview');
    expect(pair).toMatchObject({ expires_in: 3600, refresh_expires_in: 7200 });
  });
});

describe('rotating or disabling a client', () => {
  /** A client of its own, so the other tests' tokens are not affected. */
  const freshClient = async (name: string) => createClient(deps, { name });

  it('rotating the secret ends every grant of the client at once, refresh tokens included', async () => {
    const { client: account, clientSecret: secret } = await freshClient('Rotating Agency');
    const first = await issueTokenPair(deps, await verifyClientCredentials(deps, account.clientId, secret), 'clinical-interview');
    const other = await issueTokenPair(deps, account, 'portal-v2');
    const refreshed = await refreshTokenPair(deps, first.refresh_token, 'clinical-interview');
    const bystander = await issueTokenPair(deps, client, 'clinical-interview');

    const newSecret = await rotateClientSecret(deps, account.clientId);

    for (const [token, family] of [
      [first.access_token, 'clinical-interview'],
      [refreshed.access_token, 'clinical-interview'],
      [other.access_token, 'portal-v2'],
    ] as const) {
      expect(await code(authenticate(deps, token, family))).toBe('invalid-token');
    }
    expect(await code(refreshTokenPair(deps, refreshed.refresh_token, 'clinical-interview'))).toBe('invalid-token');
    expect(await code(refreshTokenPair(deps, other.refresh_token, 'portal-v2'))).toBe('invalid-token');
    // Another client's tokens are untouched; the new secret gives tokens that work.
    expect(await code(authenticate(deps, bystander.access_token, 'clinical-interview'))).toBe('ok');
    const renewed = await issueTokenPair(deps, await verifyClientCredentials(deps, account.clientId, newSecret), 'clinical-interview');
    expect(await code(authenticate(deps, renewed.access_token, 'clinical-interview'))).toBe('ok');
    expect(await code(refreshTokenPair(deps, renewed.refresh_token, 'clinical-interview'))).toBe('ok');
  });

  it('an exchange whose credentials were checked just before a rotation gets no tokens', async () => {
    const { client: account, clientSecret: secret } = await freshClient('Racing Agency');
    const checked = await verifyClientCredentials(deps, account.clientId, secret);
    await rotateClientSecret(deps, account.clientId);
    expect(await code(issueTokenPair(deps, checked, 'clinical-interview'))).toBe('invalid-credentials');
  });

  it('disabling refuses the credentials like a wrong secret and ends the tokens; enabling lets it start again', async () => {
    const { client: account, clientSecret: secret } = await freshClient('Disabled Agency');
    const before = await issueTokenPair(deps, await verifyClientCredentials(deps, account.clientId, secret), 'clinical-interview');

    await setClientEnabled(deps, account.clientId, false);
    const refused = await verifyClientCredentials(deps, account.clientId, secret).catch((e: DomainError) => [e.code, e.message]);
    expect(refused).toEqual(['invalid-credentials', 'The client id or secret is not valid']);
    expect(await code(authenticate(deps, before.access_token, 'clinical-interview'))).toBe('invalid-token');
    expect(await code(refreshTokenPair(deps, before.refresh_token, 'clinical-interview'))).toBe('invalid-token');

    await setClientEnabled(deps, account.clientId, true);
    const after = await issueTokenPair(deps, await verifyClientCredentials(deps, account.clientId, secret), 'clinical-interview');
    expect(await code(authenticate(deps, after.access_token, 'clinical-interview'))).toBe('ok');
    // What was issued before the client was disabled stays void.
    expect(await code(authenticate(deps, before.access_token, 'clinical-interview'))).toBe('invalid-token');
  });
});
