import type { Deps } from '../../functions/core/platform/deps.js';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { abandonIdempotent, beginIdempotent, completeIdempotent, idempotencyKeys } from '../../functions/core/platform/idempotency.js';
import { idempotency } from '../../functions/middleware/idempotency.js';
import { testClock, testDeps, type TestClock } from '../support/env.js';

const CI = 'clinical-interview';

let deps: Deps;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock();
  deps = await testDeps({ clock });
});

const code = (p: Promise<unknown>) =>
  p.then(
    (r) => (r as { kind: string }).kind,
    (e) => e.code,
  );
const response = { statusCode: 201, headers: { 'content-type': 'application/json' }, body: '{"id":7}' };

describe('idempotency keys', () => {
  it('run a request once, then replay its response for 24 hours', async () => {
    expect(await code(beginIdempotent(deps, 'cl_a', CI, 'k1', 'hash-1'))).toBe('new');
    expect(await code(beginIdempotent(deps, 'cl_a', CI, 'k1', 'hash-1'))).toBe('idempotency-in-flight');
    await completeIdempotent(deps, 'cl_a', CI, 'k1', response);
    await expect(beginIdempotent(deps, 'cl_a', CI, 'k1', 'hash-1')).resolves.toEqual({ kind: 'replay', response });
    clock.advance(24 * 3600 - 1);
    expect(await code(beginIdempotent(deps, 'cl_a', CI, 'k1', 'hash-1'))).toBe('replay');
    clock.advance(1);
    expect(await code(beginIdempotent(deps, 'cl_a', CI, 'k1', 'hash-1'))).toBe('new');
  });

  it('refuse the same key with another request, and are scoped to the client', async () => {
    expect(await code(beginIdempotent(deps, 'cl_b', CI, 'k2', 'hash-1'))).toBe('new');
    await completeIdempotent(deps, 'cl_b', CI, 'k2', response);
    expect(await code(beginIdempotent(deps, 'cl_b', CI, 'k2', 'hash-2'))).toBe('idempotency-key-reuse');
    expect(await code(beginIdempotent(deps, 'cl_c', CI, 'k2', 'hash-2'))).toBe('new');
  });

  it('are scoped to the family: the same key and request in another family runs anew', async () => {
    expect(await code(beginIdempotent(deps, 'cl_f', CI, 'k5', 'same'))).toBe('new');
    await completeIdempotent(deps, 'cl_f', CI, 'k5', response);
    expect(await code(beginIdempotent(deps, 'cl_f', 'portal-v2', 'k5', 'same'))).toBe('new');
    expect(await code(beginIdempotent(deps, 'cl_f', CI, 'k5', 'same'))).toBe('replay');
  });

  it('let a retry through after a crash (the lease lapses) or after a refusal (the key is freed)', async () => {
    expect(await code(beginIdempotent(deps, 'cl_d', CI, 'k3', 'h'))).toBe('new');
    clock.advance(59);
    expect(await code(beginIdempotent(deps, 'cl_d', CI, 'k3', 'h'))).toBe('idempotency-in-flight');
    clock.advance(1);
    expect(await code(beginIdempotent(deps, 'cl_d', CI, 'k3', 'h'))).toBe('new');
    await abandonIdempotent(deps, 'cl_d', CI, 'k3');
    expect(await code(beginIdempotent(deps, 'cl_d', CI, 'k3', 'h'))).toBe('new');
  });

  it('keep a response that carries a secret or a link sealed, and replay it as it was', async () => {
    const secret = 'whsec_aTjHCyrbsG8rZ0TgOhtEiCDu48bxjFlS9rkUSS+fe7A=';
    const link = 'https://example.test/invites/5qH2kP9xLm3vT7wR8zY1bN4c';
    const withSecret = {
      statusCode: 201,
      headers: { 'content-type': 'application/json', location: link },
      body: JSON.stringify({ id: 9, secret, invite_url: link }),
    };
    expect(await code(beginIdempotent(deps, 'cl_s', CI, 'k6', 'h'))).toBe('new');
    await completeIdempotent(deps, 'cl_s', CI, 'k6', withSecret);
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: idempotencyKeys.record('cl_s', CI, 'k6') }));
    expect(Item).toMatchObject({ entity: 'idempotency', status: 'completed' });
    expect(Item).not.toHaveProperty('response');
    const stored = JSON.stringify(Item) + Buffer.from(Item!.sealed_response as Uint8Array).toString('latin1');
    for (const clear of ['aTjHCyrbsG8rZ0Tg', '5qH2kP9xLm3vT7wR', '"statusCode"']) expect(stored).not.toContain(clear);
    await expect(beginIdempotent(deps, 'cl_s', CI, 'k6', 'h')).resolves.toEqual({ kind: 'replay', response: withSecret });
    // Sealed to its record: moved onto another key, it does not open.
    await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...Item, ...idempotencyKeys.record('cl_s', CI, 'k7') } }));
    await expect(beginIdempotent(deps, 'cl_s', CI, 'k7', 'h')).rejects.toThrow();
  });

  it('give one of several concurrent first attempts the run', async () => {
    const results = await Promise.all(Array.from({ length: 8 }, () => code(beginIdempotent(deps, 'cl_e', CI, 'k4', 'h'))));
    expect(results.filter((r) => r === 'new')).toHaveLength(1);
    expect(results.filter((r) => r === 'idempotency-in-flight')).toHaveLength(7);
  });
});

describe('the Idempotency-Key middleware', () => {
  /** An idempotent POST as the edge hands it on: its path, query and parsed body. */
  const request = (query: Record<string, string> | undefined) => ({
    deps,
    clientId: 'cl_q',
    family: 'registration-monitoring' as const,
    event: {
      headers: { 'idempotency-key': 'import-of-file-1' },
      requestContext: { http: { method: 'POST' } },
      rawPath: '/imports',
      queryStringParameters: query,
      body: { csv: 'a,b' },
    },
  });

  it('refuses the same key, path and body with another query (a dry run, then the import itself), and replays the same query', async () => {
    let runs = 0;
    const run = async () => ({ statusCode: 202, headers: {}, body: JSON.stringify({ run: ++runs }) });
    const first = await idempotency(request({ dry_run: 'true' }) as never, run);
    expect(first.body).toBe('{"run":1}');
    await expect(idempotency(request(undefined) as never, run)).rejects.toMatchObject({ code: 'idempotency-key-reuse' });
    await expect(idempotency(request({ mode: 'create_only' }) as never, run)).rejects.toMatchObject({ code: 'idempotency-key-reuse' });
    const again = await idempotency(request({ dry_run: 'true' }) as never, run);
    expect(again).toMatchObject({ body: '{"run":1}', headers: { 'idempotent-replayed': 'true' } });
    expect(runs).toBe(1);
  });
});
