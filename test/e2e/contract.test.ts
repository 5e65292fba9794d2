import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { FAMILIES, type FamilyId } from '../../functions/core/platform/families.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { bySpecificity } from '../../lib/local/server.js';
import { routesOf } from '../../lib/routes.js';
import { eventually } from '../support/eventually.js';
import { call, startTestStack, type JsonResponse } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * The contract test: the end-to-end flows of both families, with every JSON
 * answer validated against the OpenAPI document the service itself serves.
 */

let stack: LocalStack;
let receiver: Receiver;
const documents: Record<string, any> = {};
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
const violations: string[] = [];
const exercised = new Set<string>();

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  for (const family of Object.keys(FAMILIES)) {
    documents[family] = (await call(`${stack.info.families[family]}/openapi.json`)).body;
  }
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

/** The document's operation for a method and a concrete path. */
function operationFor(family: FamilyId, method: string, path: string): [string, any] | undefined {
  // As API Gateway: a literal segment wins over a parameter (`/candidates` before `/{group}`).
  const templates = Object.entries(documents[family].paths as Record<string, any>).sort(([a], [b]) => bySpecificity({ path: a }, { path: b }));
  for (const [template, item] of templates) {
    const pattern = new RegExp('^' + template.replace(/\{\w+\}/g, '[^/]+') + '$');
    if (pattern.test(path) && item[method.toLowerCase()]) return [`${method} ${template}`, item[method.toLowerCase()]];
  }
  return undefined;
}

/** Calls the API and checks the answer against the document. */
async function api(family: FamilyId, path: string, init: Parameters<typeof call>[1] = {}): Promise<JsonResponse> {
  const response = await call(`${stack.info.families[family]}${path}`, init);
  const method = init.method ?? (init.body === undefined && init.rawBody === undefined ? 'GET' : 'POST');
  const found = operationFor(family, method, path.split('?')[0]!);
  if (!found) {
    violations.push(`${family} ${method} ${path}: not in the document`);
    return response;
  }
  const [key, operation] = found;
  exercised.add(`${family} ${key}`);
  const documented = operation.responses[String(response.status)];
  if (!documented) {
    violations.push(`${family} ${key}: status ${response.status} is not documented`);
    return response;
  }
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!;
  const media = documented.content?.[contentType];
  if (response.body !== undefined && !media) violations.push(`${family} ${key} ${response.status}: content type ${contentType} is not documented`);
  if (media?.schema) {
    const schema = media.schema.$ref ? documents[family].components.schemas.Problem : media.schema;
    const validate = ajv.compile(schema);
    if (!validate(response.body)) violations.push(`${family} ${key} ${response.status}: ${ajv.errorsText(validate.errors)}`);
  }
  return response;
}

it("every operation of the route table is in its family's document, and nothing else; each says spec or project", () => {
  for (const family of Object.keys(FAMILIES) as FamilyId[]) {
    const documented = Object.entries(documents[family].paths as Record<string, any>).flatMap(([path, item]) =>
      Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(
      routesOf(family)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
    for (const item of Object.values(documents[family].paths as Record<string, any>)) {
      for (const op of Object.values(item as Record<string, any>)) {
        expect(['spec', 'project']).toContain(op['x-contract']);
        const body = op.requestBody && (Object.values(op.requestBody.content)[0] as any).schema;
        for (const property of Object.values((body?.properties ?? {}) as Record<string, any>)) expect(['spec', 'project']).toContain(property['x-contract']);
      }
    }
  }
  expect(documents['clinical-interview'].paths['/bookings'].post.requestBody.content['application/json'].schema.properties.pay_option['x-contract']).toBe(
    'spec',
  );
  expect(documents['clinical-interview'].paths['/interview-types'].get['x-contract']).toBe('spec');
  expect(documents['clinical-interview'].paths['/client/booking-url/rotate'].post['x-contract']).toBe('project');
});

it('the flows of every family answer exactly as documented', async () => {
  const ci = (path: string, init?: Parameters<typeof call>[1]) => api('clinical-interview', path, init);
  const pv = (path: string, init?: Parameters<typeof call>[1]) => api('portal-v2', path, init);
  const pt = (path: string, init?: Parameters<typeof call>[1]) => api('practical-training', path, init);
  const vl = (path: string, init?: Parameters<typeof call>[1]) => api('virtual-life-support', path, init);
  const creds = { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' };

  // Tokens, both families.
  const token = (await ci('/auth/token', { body: creds })).body.access_token;
  // A second grant to refresh and revoke (revoking a token ends its whole grant).
  const pair = (await ci('/auth/token', { body: creds })).body;
  await ci('/auth/token', { body: { ...creds, client_secret: 'wrong' } });
  await ci('/auth/token', { token });
  const refreshed = (await ci('/auth/refresh', { body: { refresh_token: pair.refresh_token } })).body;
  await ci('/auth/token', { method: 'DELETE', token: refreshed.access_token });
  await ci('/auth/token', { token: 'nope' });
  const ptoken = (await pv('/auth/token', { body: creds })).body.access_token;
  const ppair = (await pv('/auth/token', { body: creds })).body;
  const prefreshed = (await pv('/auth/refresh', { body: { refresh_token: ppair.refresh_token } })).body;
  await pv('/auth/token', { token: prefreshed.access_token });
  await pv('/auth/token', { method: 'DELETE', token: prefreshed.access_token });
  const ttoken = (await pt('/auth/token', { body: creds })).body.access_token;
  const tpair = (await pt('/auth/token', { body: creds })).body;
  const trefreshed = (await pt('/auth/refresh', { body: { refresh_token: tpair.refresh_token } })).body;
  await pt('/auth/token', { token: trefreshed.access_token });
  await pt('/auth/token', { method: 'DELETE', token: trefreshed.access_token });
  const rm = (path: string, init?: Parameters<typeof call>[1]) => api('registration-monitoring', path, init);
  const mtoken = (await rm('/auth/token', { body: creds })).body.access_token;
  const mpair = (await rm('/auth/token', { body: creds })).body;
  const mrefreshed = (await rm('/auth/refresh', { body: { refresh_token: mpair.refresh_token } })).body;
  await rm('/auth/token', { token: mrefreshed.access_token });
  await rm('/auth/token', { method: 'DELETE', token: mrefreshed.access_token });

  // Clinical interview.
  await ci('/interview-types', { token });
  const slots = (await ci('/timeslots?interview_type_id=1', { token })).body.data;
  await ci('/timeslots?interview_type_id=x', { token });
  const held = (await ci('/timeslots/hold', { token, body: { interview_type_id: 1, date: slots[0].date, time: slots[0].time } })).body;
  await ci('/timeslots/hold', { token, body: { interview_type_id: 1, date: slots[1].date, time: slots[1].time } });
  await ci('/timeslots/hold', { token, body: { interview_type_id: 'one' } });
  await ci('/timeslots/hold', { token, rawBody: '{', headers: { 'content-type': 'application/json' } });
  const candidate = { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.org', phone: '+447700900123', job_role: 'RN', nmc_number: '12A3456B' };
  const booking = (
    await ci('/bookings', { token, body: { ...candidate, hold_hash: held.hold_hash, pay_option: 'credits' }, headers: { 'idempotency-key': 'contract-1' } })
  ).body;
  await ci('/bookings', { token, body: { ...candidate, hold_hash: held.hold_hash, pay_option: 'credits' } });
  await ci('/bookings?status=booked&limit=5', { token });
  await ci(`/bookings/${booking.id}`, { token });
  await ci('/bookings/999999', { token });
  await ci(`/bookings/${booking.id}/interview-report`, { token });
  await ci('/client/balances', { token });
  await ci('/client/wallet-transactions?limit=2', { token });
  await ci('/client/booking-url', { token });
  await ci('/client/booking-url/rotate', { method: 'POST', token });
  const held2 = (await ci('/timeslots/hold', { token, body: { interview_type_id: 1, date: slots[2].date, time: slots[2].time } })).body;
  await ci(`/timeslots/hold/${held2.hold_hash}`, { method: 'DELETE', token });

  // Practical training.
  await pt('/courses', { token: ttoken });
  await pt('/locations', { token: ttoken });
  const tevents = (await pt('/training-events?course_id=1&available_only=true', { token: ttoken })).body.data;
  await pt('/training-events?available_only=maybe', { token: ttoken });
  await pt(`/training-events/${tevents.at(-1).id}`, { token: ttoken });
  await pt('/training-events/999999', { token: ttoken });
  const seat = (await pt('/seats/hold', { token: ttoken, body: { training_event_id: tevents.at(-1).id } })).body;
  await pt('/seats/hold', { token: ttoken, body: { training_event_id: tevents.at(-1).id } });
  await pt('/seats/hold', { token: ttoken, body: { training_event_id: 999999 } });
  const trainee = { first_name: 'Tom', last_name: 'Okoro', email: 'tom@example.org', phone: '+447700900321', job_role: 'HCA' };
  const tbooking = (await pt('/bookings', { token: ttoken, body: { ...trainee, hold_hash: seat.hold_hash, pay_option: 'credits' } })).body;
  await pt('/bookings', { token: ttoken, body: { ...trainee, hold_hash: seat.hold_hash, pay_option: 'credits' } });
  await pt('/bookings?status=booked&course_id=1', { token: ttoken });
  await pt('/bookings/no-shows', { token: ttoken });
  await pt(`/bookings/${tbooking.id}`, { token: ttoken });
  await pt(`/bookings/${tbooking.id}/cancel`, { token: ttoken, body: { reason: 'withdrew' } });
  await pt(`/bookings/${tbooking.id}/cancel`, { token: ttoken, body: {} });
  await pt('/client/account', { token: ttoken });
  await pt('/client/balances', { token: ttoken });
  await pt('/client/wallet-transactions?limit=2', { token: ttoken });
  await pt('/client/booking-url', { token: ttoken });
  await pt('/client/booking-url/rotate', { method: 'POST', token: ttoken });
  const seat2 = (await pt('/seats/hold', { token: ttoken, body: { training_event_id: tevents.at(-1).id } })).body;
  await pt(`/seats/hold/${seat2.hold_hash}`, { method: 'DELETE', token: ttoken });
  const invite = (
    await pt('/booking-invites', {
      token: ttoken,
      body: { candidate: { first_name: 'Rosa', last_name: 'Diaz', email: 'rosa@example.org' }, course_id: 1, pay_option: 'credits', expires_in_days: 7 },
      headers: { 'idempotency-key': 'contract-invite-1' },
    })
  ).body;
  await pt('/booking-invites', { token: ttoken, body: { course_id: 1, pay_option: 'credits' } });
  await pt('/booking-invites?limit=2', { token: ttoken });
  await pt(`/booking-invites/${invite.id}`, { token: ttoken });
  await pt('/booking-invites/999999', { token: ttoken });
  await pt(`/bookings/${tbooking.id}/certificate`, { token: ttoken }); // 404 certificate-unavailable: never issued

  // Virtual life-support.
  const vtoken = (await vl('/auth/token', { body: creds })).body.access_token;
  const vpair = (await vl('/auth/token', { body: creds })).body;
  const vrefreshed = (await vl('/auth/refresh', { body: { refresh_token: vpair.refresh_token } })).body;
  await vl('/auth/token', { token: vrefreshed.access_token });
  await vl('/auth/token', { method: 'DELETE', token: vrefreshed.access_token });
  await vl('/courses', { token: vtoken });
  const vslot = (await vl('/timeslots?course_id=1', { token: vtoken })).body.data.at(-1);
  await vl('/timeslots?course_id=one', { token: vtoken });
  const vheld = (await vl('/timeslots/hold', { token: vtoken, body: { course_id: 1, date: vslot.date, time: vslot.time } })).body;
  await vl('/timeslots/hold', { token: vtoken, body: { course_id: 1, date: vslot.date, time: vslot.time } });
  await vl(`/timeslots/hold/${vheld.hold_hash}`, { method: 'DELETE', token: vtoken });
  await vl('/timeslots/hold', { token: vtoken, body: { course_id: 1, date: '2026-01-05', time: '10:00' } });
  const vhold = (await vl('/timeslots/hold', { token: vtoken, body: { course_id: 1, date: vslot.date, time: vslot.time } })).body;
  const learner = { ...trainee, nmc_number: '12A3456B' };
  await vl('/bookings', { token: vtoken, body: { ...learner, hold_hash: vhold.hold_hash, pay_option: 'credits' } });
  const vbooking = (
    await vl('/bookings', {
      token: vtoken,
      body: { ...learner, hold_hash: vhold.hold_hash, pay_option: 'credits', delivery_address: { line1: '4 Mill Road', town: 'Leeds', postcode: 'LS6 2AB' } },
    })
  ).body;
  await vl('/bookings?equipment_status=awaiting_dispatch', { token: vtoken });
  await vl(`/bookings/${vbooking.id}`, { token: vtoken });
  await vl(`/bookings/${vbooking.id}/certificate`, { token: vtoken });
  await vl('/client/balances', { token: vtoken });
  await vl('/client/wallet-transactions?limit=2', { token: vtoken });
  await vl('/client/booking-url', { token: vtoken });
  await vl('/client/booking-url/rotate', { method: 'POST', token: vtoken });

  // Services (clinical interview tokens) and the practical training legacy API (practical training tokens, deprecated).
  const sv = (path: string, init?: Parameters<typeof call>[1]) => api('services', path, init);
  await sv('/bookings?limit=2', { token });
  await sv(`/bookings?updated_since=${encodeURIComponent('2026-01-01T00:00:00+00:00')}&status=booked`, { token });
  await sv('/bookings?updated_since=yesterday', { token });
  await sv('/bookings', { token: ttoken });
  const legacy = (path: string, init?: Parameters<typeof call>[1]) => api('practical-training-legacy', path, init);
  await legacy('/bookings/past', { token: ttoken });
  await legacy('/bookings/upcoming?limit=2', { token: ttoken });
  await legacy(`/bookings/search?date=${tevents.at(-1).date}`, { token: ttoken });
  await legacy('/bookings/search?from=2027-01-01', { token: ttoken });
  await legacy('/booking-links', { token: ttoken });
  await legacy('/booking-links', { token });

  // Registration monitoring: workers.
  const mworker = { first_name: 'Grace', last_name: 'Adeyemi', external_ref: 'CONTRACT-1', registration: { register: 'nmc', number: '88A8888B' } };
  const mw = (await rm('/workers', { token: mtoken, body: mworker })).body;
  await rm('/workers', { token: mtoken, body: mworker });
  await rm('/workers?register=nmc&limit=5', { token: mtoken });
  await rm(`/workers/${mw.id}`, { token: mtoken });
  await rm('/workers/999999', { token: mtoken });
  await rm(`/workers/${mw.id}`, { method: 'PUT', token: mtoken, body: { ...mworker, phone: '+447700900999' } });
  await rm(`/workers/${mw.id}`, { method: 'PATCH', token: mtoken, body: { phone: null }, headers: { 'content-type': 'application/merge-patch+json' } });
  await rm(`/workers/${mw.id}`, { method: 'PATCH', token: mtoken, body: { phone: null } });
  await rm(`/workers/${mw.id}/verifications`, { method: 'POST', token: mtoken });
  await rm(`/workers/${mw.id}/verifications`, { method: 'POST', token: mtoken });
  await rm(`/workers/${mw.id}/verifications?fresh=maybe`, { method: 'POST', token: mtoken });
  await rm(`/workers/${mw.id}/verifications?from=2026-01-01`, { token: mtoken });
  const alerts = (await rm('/alerts?status=open&limit=5', { token: mtoken })).body.data;
  await rm(`/alerts/${alerts[0].id}`, { token: mtoken });
  await rm(`/alerts/${alerts[0].id}/acknowledge`, { token: mtoken, body: { note: 'seen' } });
  await rm('/alerts/acknowledge', { token: mtoken, body: { alert_ids: [alerts[0].id, 999999] } });
  await rm('/alerts/acknowledge', { token: mtoken, body: { alert_ids: [] } });
  const mjob = (await rm('/verification-jobs', { token: mtoken, body: { worker_ids: [mw.id] } })).body;
  await rm('/verification-jobs', { token: mtoken, body: { worker_ids: [] } });
  await rm(`/verification-jobs/${mjob.id}`, { token: mtoken });
  await rm('/verification-jobs/999999', { token: mtoken });
  await rm('/billing/usage', { token: mtoken });
  await rm('/billing/usage?period=2026-13', { token: mtoken });
  const csv = { 'content-type': 'text/csv' };
  await rm('/imports?dry_run=true', {
    token: mtoken,
    headers: csv,
    rawBody: 'first_name,last_name,register,registration_number\nAda,Lovelace,nmc,12A9001B\nBad,Row,nmc,12A\n',
  });
  await rm('/imports?dry_run=true', { token: mtoken, headers: csv, rawBody: 'first_name,last_name\nAda,Lovelace\n' });
  await rm('/imports?mode=replace', { token: mtoken, headers: csv, rawBody: 'first_name\n' });
  await rm('/imports', { token: mtoken, headers: { 'content-type': 'application/json' }, rawBody: '{}' });
  await rm('/imports?limit=5', { token: mtoken });
  await rm('/imports?limit=0', { token: mtoken });
  await rm('/imports/999999', { token: mtoken });
  await rm('/team/roles', { token: mtoken });
  const mrole = (await rm('/team/roles', { token: mtoken, body: { name: 'Contract role', permissions: ['workers:read'] } })).body;
  await rm('/team/roles', { token: mtoken, body: { name: 'Contract role', permissions: ['everything'] } });
  await rm(`/team/roles/${mrole.id}`, { token: mtoken });
  await rm(`/team/roles/${mrole.id}`, { method: 'PUT', token: mtoken, body: { name: 'Contract role 2', permissions: ['workers:read', 'alerts:read'] } });
  await rm('/team/roles/viewer', { method: 'PUT', token: mtoken, body: { name: 'Mine', permissions: [] } });
  await rm('/team/users', { token: mtoken });
  const muser = (await rm('/team/users', { token: mtoken, body: { name: 'Contract User', email: 'contract.user@example.org', role_id: mrole.id } })).body;
  await rm('/team/users', { token: mtoken, body: { name: 'Contract User', email: 'contract.user@example.org', role_id: 'viewer' } });
  await rm(`/team/roles/${mrole.id}`, { method: 'DELETE', token: mtoken });
  await rm(`/team/users/${muser.id}`, { token: mtoken });
  await rm(`/team/users/${muser.id}`, {
    method: 'PUT',
    token: mtoken,
    body: { name: 'Contract User', email: 'contract.user@example.org', role_id: 'viewer', alert_min_severity: 'none' },
  });
  await rm(`/team/users/${muser.id}`, { method: 'DELETE', token: mtoken });
  await rm(`/team/roles/${mrole.id}`, { method: 'DELETE', token: mtoken });
  await rm(`/workers/${mw.id}/monitoring`, { token: mtoken });
  await rm(`/workers/${mw.id}/monitoring`, { method: 'PUT', token: mtoken, body: { frequency: 'weekly' } });
  await rm(`/workers/${mw.id}/monitoring`, { method: 'PUT', token: mtoken, body: { frequency: 'hourly' } });
  await rm('/monitoring/bulk', { token: mtoken, body: { worker_ids: [mw.id, 999999], settings: { enabled: true } } });
  const evidence = (await rm(`/evidence?worker_id=${mw.id}`, { token: mtoken })).body.data;
  await rm(`/evidence/${evidence[0].id}`, { token: mtoken });
  await rm('/evidence/999999/download', { token: mtoken }); // 404 problem+json; the PDF and JSON answers are checked in registration-monitoring.test.ts
  await rm(`/workers/${mw.id}`, { method: 'DELETE', token: mtoken });
  await rm(`/alerts/${alerts[0].id}/acknowledge`, { token: mtoken, body: {} });
  await rm(`/workers/${mw.id}`, { method: 'PUT', token: mtoken, body: mworker });

  // Webhooks, every family that has them.
  for (const [family, t, kind] of [
    ['clinical-interview', token, 'booking.created'],
    ['portal-v2', ptoken, 'reference.completed'],
    ['practical-training', ttoken, 'booking.created'],
    ['virtual-life-support', vtoken, 'booking.equipment_return_overdue'],
    ['registration-monitoring', mtoken, 'worker.created'],
  ] as const) {
    const hooks = (path: string, init?: Parameters<typeof call>[1]) => api(family, path, init);
    const created = (await hooks('/webhooks', { token: t, body: { name: 'Contract', url: receiver.url, events: [kind] } })).body;
    const id = (created.data ?? created).id;
    await hooks('/webhooks', { token: t, body: { name: 'Bad', url: 'ftp://x', events: [kind] } });
    await hooks('/webhooks', { token: t });
    await hooks(`/webhooks/${id}`, { token: t });
    await hooks(`/webhooks/${id}`, { method: 'PUT', token: t, body: { events: [kind], is_active: true, timeout_seconds: 5 } });
    await hooks(`/webhooks/${id}/rotate-secret`, { method: 'POST', token: t });
    await hooks(`/webhooks/${id}/test`, { method: 'POST', token: t });
    // The log once the test event's attempt is in it.
    await eventually(async () => (await hooks(`/webhooks/${id}/logs`, { token: t })).body.data.length > 0, { what: `the ${family} test delivery's log` });
    await hooks(`/webhooks/${id}/replay`, { token: t, body: { since: new Date(Date.now() - 3_600_000).toISOString(), all: true } });
    await hooks(`/webhooks/${id}/replay`, { token: t, body: { since: 'last week' } });
    await hooks(`/webhooks/${id}`, { method: 'DELETE', token: t });
    await hooks(`/webhooks/${id}`, { token: t });
  }

  // Portal v2.
  await pv('/templates', { token: ptoken });
  await pv('/candidates', { token: ptoken });
  const kate = (await pv('/candidates', { token: ptoken, body: { first_name: 'Kate', last_name: 'Marsden', email: 'kate@example.org' } })).body.data;
  await pv(`/candidates/${kate.id}`, { token: ptoken });
  const referee = { referee_name: 'Dr Jane Smith', referee_email: 'jane@nhs.example', referee_organisation: 'NHS', referee_position: 'Matron' };
  const request = (
    await pv('/reference-requests', { token: ptoken, body: { candidate_id: kate.id, template_id: 1, collection_mode: 'client_adds', referees: [referee] } })
  ).body.data;
  await pv('/reference-requests', {
    token: ptoken,
    body: { candidate_id: kate.id, template_id: 1, collection_mode: 'client_adds', referees: [{ ...referee, referee_email: 'x' }] },
  });
  await pv('/reference-requests?status=pending', { token: ptoken });
  await pv(`/reference-requests/${request.id}`, { token: ptoken });
  await pv(`/reference-requests/${request.id}/referees`, { token: ptoken, body: { ...referee, referee_email: 'john@nhs.example' } });
  await pv(`/reference-requests/${request.id}/reminders`, { method: 'POST', token: ptoken });
  const form = request.references[0].form_url as string;
  await fetch(form, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: 'action=submit&q_clinical_competence=5&q_reliability=5&q_communication=5&q_teamwork=5&q_safeguarding=None',
  });
  await pv(`/references/${request.references[0].id}`, { token: ptoken });
  await pv(`/reference-requests/${request.id}/cancel`, { method: 'POST', token: ptoken });
  await pv(`/reference-requests/${request.id}/cancel`, { method: 'POST', token: ptoken });

  // Portal v2 request groups (the review and file operations in the states a new request has: 409 and 404).
  await pv('/templates?kind=training', { token: ptoken });
  const group = (await pv('/training-requests', { token: ptoken, body: { candidate_id: kate.id, subjects: ['fire_safety'] } })).body.data;
  await pv('/training-requests', { token: ptoken, body: { candidate_id: kate.id, subjects: [] } });
  await pv('/training-requests?status=pending', { token: ptoken });
  await pv(`/training-requests/${group.id}`, { token: ptoken });
  await pv(`/training-requests/${group.id}/reminders`, { method: 'POST', token: ptoken });
  const item = `/training-requests/${group.id}/items/${group.items[0].id}`;
  await pv(`${item}/accept`, { method: 'POST', token: ptoken });
  await pv(`${item}/reject`, { token: ptoken, body: { reason: 'Not legible' } });
  await pv(`${item}/reject`, { token: ptoken, body: {} });
  await pv(`${item}/file`, { token: ptoken });
  await pv(`${item}/reissue`, { method: 'POST', token: ptoken }); // 409: not a booking kind's failed item
  await pv(`/training-requests/${group.id}/cancel`, { method: 'POST', token: ptoken });
  await pv(`/training-requests/${group.id}/cancel`, { method: 'POST', token: ptoken });

  // Portal v1 (deprecated), over the portal v2 token: v2's objects.
  const v1 = (path: string, init?: Parameters<typeof call>[1]) => api('portal-v1', path, init);
  await v1('/candidates', { token: ptoken });
  const ann = (await v1('/candidates', { token: ptoken, body: { first_name: 'Ann', last_name: 'Lee', email: 'ann@example.org' } })).body.data;
  await v1(`/candidates/${ann.id}`, { token: ptoken });
  for (const [path, body] of [
    ['/training-requests', { candidate_id: ann.id, subjects: ['fire_safety'] }],
    ['/occupational-health-requests', { candidate_id: ann.id, collection_mode: 'candidate_provides' }],
    ['/certificate-requests', { candidate_id: ann.id, certificates: [{ kind: 'dbs' }] }],
  ] as const) {
    const created = (await v1(path, { token: ptoken, body })).body.data;
    await v1(path, { token: ptoken, body: { candidate_id: 'ann' } });
    await v1(`${path}?limit=2`, { token: ptoken });
    await v1(`${path}/${created.id}`, { token: ptoken });
  }
  const subscription = (await v1('/webhooks', { token: ptoken, body: { url: receiver.url, events: ['training_request.completed'] } })).body.data;
  await v1('/webhooks', { token: ptoken, body: { url: receiver.url, events: ['booking.created'] } });
  await v1(`/webhooks/${subscription.id}`, { method: 'DELETE', token: ptoken });
  await v1(`/webhooks/${subscription.id}`, { method: 'DELETE', token: ptoken });

  // Data subjects, in each family that holds people's data: Ada's booking to come refuses her erasure (409).
  await ci('/data-subjects/erasures', { token, body: { email: candidate.email } });
  for (const [family, t] of [
    ['clinical-interview', token],
    ['practical-training', ttoken],
    ['virtual-life-support', vtoken],
    ['registration-monitoring', mtoken],
    ['portal-v2', ptoken],
  ] as const) {
    // Portal v2 answers in its envelope (`data`).
    const ds = async (path: string, init?: Parameters<typeof call>[1]) => {
      const r = await api(family, path, init);
      return { ...r, body: r.body && typeof r.body === 'object' && !('status' in r.body) && r.body.data ? r.body.data : r.body };
    };
    const finished = (path: string) =>
      eventually(
        async () => {
          const r = (await ds(path, { token: t })).body;
          return !['queued', 'running'].includes(r.status) && r.status;
        },
        { timeoutMs: 30_000, intervalMs: 200, what: `${family} ${path}` },
      );
    // The export first: an erasure of the same person deletes it.
    const exported = (await ds('/data-subjects/exports', { token: t, body: { email: 'nobody@example.org' } })).body;
    expect(await finished(`/data-subjects/exports/${exported.id}`)).toBe('completed');
    await ds('/data-subjects/exports', { token: t, body: { email: 'not-an-address' } });
    const erased = (await ds('/data-subjects/erasures', { token: t, body: { email: 'Nobody@Example.org' } })).body;
    expect(await finished(`/data-subjects/erasures/${erased.id}`)).toBe('completed');
    expect(await finished(`/data-subjects/exports/${exported.id}`)).toBe('expired');
    await ds('/data-subjects/erasures/999999', { token: t });
  }

  expect(violations).toEqual([]);
  // Every JSON operation was exercised (pages, the docs and the reference PDF are checked elsewhere).
  const jsonOperations = (Object.keys(FAMILIES) as FamilyId[]).flatMap((family) =>
    routesOf(family)
      .filter((r) => (r.auth === 'bearer' || r.path.startsWith('/auth')) && !r.path.endsWith('/pdf'))
      .map((r) => `${family} ${r.method} ${r.path}`),
  );
  expect(jsonOperations.filter((o) => !exercised.has(o))).toEqual([]);
}, 180_000);

it('serves a docs page that loads Swagger UI from the service itself', async () => {
  const base = stack.info.families['portal-v2']!;
  const page = await fetch(`${base}/docs`);
  expect(page.headers.get('content-type')).toMatch(/text\/html/);
  const html = await page.text();
  expect(html).toContain('./docs/swagger-ui-bundle.js');
  expect(html).not.toMatch(/https?:\/\//);
  const bundle = await fetch(`${base}/docs/swagger-ui-bundle.js`);
  expect(bundle.status).toBe(200);
  expect((await bundle.arrayBuffer()).byteLength).toBeGreaterThan(100_000);
  expect((await fetch(`${base}/docs/init.js`)).status).toBe(200);
  expect((await fetch(`${base}/docs/secrets.txt`)).status).toBe(404);
});
