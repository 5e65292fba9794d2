import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { seedDemoData } from '../../../functions/core/demo-data.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { declineReference, submitReference } from '../../../functions/core/portal-v2/reference-forms.js';
import { backfillReferenceRetention, loadReferenceRequest, references } from '../../../functions/core/portal-v2/references.js';
import { cancelReferenceRequest, createReferenceRequest, getReference, getReferenceRequest } from '../../../functions/core/portal-v2/reference-requests.js';
import { expireDueRequestsOfEveryKind } from '../../../functions/core/portal-v2/request-kinds.js';
import { purgeDueRequests } from '../../../functions/core/portal-v2/request-purge.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/** Reference requests and their references are kept six years (2190 days) from closing, then the hourly purge blanks who and what; the outcome stays. */

let deps: Deps;
let clock: TestClock;
const CLIENT = 'demo-northwind';
const BASE = 'http://portal.test/portal/v2';
const DAY = 86_400;
let n = 0;
const referee = () => ({
  referee_name: `Ref ${++n}`,
  referee_email: `ref${n}@nhs.example`,
  referee_organisation: 'NHS Trust',
  referee_position: 'Matron',
  referee_phone: '07700900123',
});
const ANSWERS = { clinical_competence: '4', reliability: '4', communication: '4', teamwork: '4', safeguarding: 'None' };

beforeEach(async () => {
  clock = testClock('2026-11-23T09:00:00.000Z');
  deps = await testDeps({ clock });
  await seedDemoData(deps);
});

const create = () =>
  createReferenceRequest(
    deps,
    CLIENT,
    {
      candidate_id: 1,
      collection_mode: 'client_adds',
      references_required: 1,
      template_id: 1,
      expiry_days: 14,
      notes: 'Night shifts only',
      referees: [referee(), referee()],
    },
    BASE,
  );
const stored = async (id: number) =>
  (await deps.db.send(new GetCommand({ TableName: deps.table, Key: references.keys.request(CLIENT, id), ConsistentRead: true }))).Item!;

it('a completed request closes at its expiry and is blanked six years later: names, addresses, notes, answers and reasons go; statuses, counts and scores stay', async () => {
  const request = await create();
  const loaded = (await loadReferenceRequest(deps, CLIENT, request.id))!;
  await submitReference(deps, loaded.references[0]!.form_token, ANSWERS);
  await declineReference(deps, loaded.references[1]!.form_token, 'I did not manage this candidate');
  expect((await getReferenceRequest(deps, CLIENT, request.id)).status).toBe('completed');

  clock.advance(14 * DAY);
  await expireDueRequestsOfEveryKind(deps);
  const closedAt = '2026-12-07T09:00:00.000Z';
  expect(await stored(request.id)).toMatchObject({ status: 'completed', closed_at: closedAt, gsi1sk: expect.stringContaining('2032-12-05T09:00:00.000Z') });

  clock.set('2032-12-05T08:59:59.000Z');
  await purgeDueRequests(deps);
  expect((await getReferenceRequest(deps, CLIENT, request.id)).candidate_name).not.toBe('Erased');
  expect((await getReference(deps, CLIENT, loaded.references[0]!.id)).answers).not.toBeNull();

  clock.set('2032-12-05T09:00:00.000Z');
  expect(await purgeDueRequests(deps)).toBeGreaterThanOrEqual(1);
  const after = await getReferenceRequest(deps, CLIENT, request.id);
  expect(after).toMatchObject({
    status: 'completed',
    candidate_id: 1,
    candidate_name: 'Erased',
    candidate_email: null,
    notes: null,
    references_required: 1,
    references_completed: 1,
  });
  const [completed, declined] = after.references;
  const blank = {
    referee_name: 'Erased',
    referee_email: '',
    referee_organisation: '',
    referee_position: '',
    referee_phone: null,
    relationship_to_candidate: null,
    decline_reason: null,
  };
  expect(completed).toMatchObject({ ...blank, status: 'completed', score: expect.any(Number) });
  expect(declined).toMatchObject({ ...blank, status: 'declined' });
  expect((await getReference(deps, CLIENT, completed!.id)).answers).toBeNull();
  // Out of the purge index: nothing is due for it again.
  const item = await stored(request.id);
  expect(item.purged_at).toBe('2032-12-05T09:00:00.000Z');
  expect(item.gsi1pk).toBeUndefined();
  const version = item.version;
  clock.advance(365 * DAY);
  await purgeDueRequests(deps);
  expect((await stored(request.id)).version).toBe(version);
});

it('a cancelled request is kept six years from its cancellation', async () => {
  const request = await create();
  clock.advance(DAY);
  await cancelReferenceRequest(deps, CLIENT, request.id);
  expect(await stored(request.id)).toMatchObject({ status: 'cancelled', closed_at: '2026-11-24T09:00:00.000Z' });
  clock.set('2032-11-22T08:59:59.000Z');
  await purgeDueRequests(deps);
  expect((await getReferenceRequest(deps, CLIENT, request.id)).notes).toBe('Night shifts only');
  clock.set('2032-11-22T09:00:00.000Z');
  await purgeDueRequests(deps);
  expect(await getReferenceRequest(deps, CLIENT, request.id)).toMatchObject({
    status: 'cancelled',
    candidate_name: 'Erased',
    notes: null,
    references: [
      { referee_name: 'Erased', status: 'cancelled' },
      { referee_name: 'Erased', status: 'cancelled' },
    ],
  });
});

it('backfill reference-retention puts requests closed before retention in the purge schedule from their last change, leaves open ones, and is idempotent', async () => {
  const open = await create();
  const closed = await create();
  clock.advance(DAY);
  await cancelReferenceRequest(deps, CLIENT, closed.id);
  // As closed before retention: no closing date, in no index.
  await deps.db.send(
    new UpdateCommand({ TableName: deps.table, Key: references.keys.request(CLIENT, closed.id), UpdateExpression: 'REMOVE closed_at, gsi1pk, gsi1sk' }),
  );
  const updatedAt = (await stored(closed.id)).updated_at as string;
  expect(await backfillReferenceRetention(deps)).toBeGreaterThanOrEqual(1);
  expect(await stored(closed.id)).toMatchObject({ closed_at: updatedAt, gsi1sk: expect.stringContaining('2032-11-22T09:00:00.000Z') });
  expect((await stored(open.id)).closed_at).toBeUndefined();
  expect(await backfillReferenceRetention(deps)).toBe(0);
  clock.set('2032-11-22T09:00:00.000Z');
  await purgeDueRequests(deps);
  expect((await getReferenceRequest(deps, CLIENT, closed.id)).candidate_name).toBe('Erased');
  expect((await getReferenceRequest(deps, CLIENT, open.id)).candidate_name).not.toBe('Erased');
});
