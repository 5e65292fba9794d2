import createClient from 'openapi-fetch';
import type { LocalStack } from '../../lib/local/stack.js';
import type { paths as ClinicalPaths } from '../../clients/typescript/src/generated/clinical-interview.js';
import type { paths as PortalPaths } from '../../clients/typescript/src/generated/portal-v2.js';
import { DEMO_CREDENTIALS, startTestStack } from '../support/local-stack.js';

/**
 * A client generated from each family's OpenAPI document (openapi-typescript
 * types, openapi-fetch calls) runs a whole flow against the local stack. `tsc`
 * compiles this file against the generated types: ids and integer query
 * parameters are numbers, and nothing is cast.
 */

let stack: LocalStack;
beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(async () => {
  await stack?.stop();
});

const base = (family: string) => stack.info.families[family]!;

it('books an interview with the typed clinical interview client', async () => {
  const anonymous = createClient<ClinicalPaths>({ baseUrl: base('clinical-interview') });
  const { data: pair } = await anonymous.POST('/auth/token', { body: DEMO_CREDENTIALS.northwind });
  expect(pair?.token_type).toBe('Bearer');
  const api = createClient<ClinicalPaths>({ baseUrl: base('clinical-interview'), headers: { authorization: `Bearer ${pair!.access_token}` } });

  const types = (await api.GET('/interview-types')).data!.data;
  const type = types[0]!;
  const slots = (await api.GET('/timeslots', { params: { query: { interview_type_id: type.id } } })).data!.data;
  expect(slots.length).toBeGreaterThan(0);
  const { date, time } = slots[0]!;

  const held = await api.POST('/timeslots/hold', { body: { interview_type_id: type.id, date, time } });
  expect(held.response.status).toBe(201);
  const created = await api.POST('/bookings', {
    params: { header: { 'Idempotency-Key': 'typed-client-1' } },
    body: {
      hold_hash: held.data!.hold_hash,
      first_name: 'Grace',
      last_name: 'Adeyemi',
      email: 'grace.adeyemi@example.org',
      phone: '+447700900123',
      job_role: 'Registered Nurse',
      nmc_number: '12A3456B',
      pay_option: 'credits',
    },
  });
  expect(created.response.status).toBe(201);
  const booking = created.data!;

  const read = await api.GET('/bookings/{id}', { params: { path: { id: booking.id } } });
  expect(read.data).toEqual(booking);
  expect(read.data!.interview_type.id).toBe(type.id);
  const listed = await api.GET('/bookings', { params: { query: { status: 'booked', limit: 5 } } });
  expect(listed.data!.data.map((b) => b.id)).toContain(booking.id);

  // @ts-expect-error ids are numbers in the generated types; a string is refused at compile time.
  void (() => api.GET('/bookings/{id}', { params: { path: { id: String(booking.id) } } }));

  // The server still takes ids and numbers as the text of the URL, and refuses bad ones as before.
  const missing = await api.GET('/bookings/{id}', { params: { path: { id: 999_999 } } });
  expect(missing.error).toMatchObject({ type: '/problems/not-found', status: 404 });
  const badQuery = await api.GET('/timeslots', { params: { query: { interview_type_id: 0 } } });
  expect(badQuery.error).toMatchObject({ status: 422, errors: [{ parameter: 'interview_type_id' }] });
  expect((await fetch(`${base('clinical-interview')}/bookings/1e3`, { headers: { authorization: `Bearer ${pair!.access_token}` } })).status).toBe(404);
});

it('requests a reference with the typed portal client', async () => {
  const anonymous = createClient<PortalPaths>({ baseUrl: base('portal-v2') });
  const { data: pair } = await anonymous.POST('/auth/token', { body: DEMO_CREDENTIALS.northwind });
  const api = createClient<PortalPaths>({ baseUrl: base('portal-v2'), headers: { authorization: `Bearer ${pair!.access_token}` } });

  const candidate = (await api.POST('/candidates', { body: { first_name: 'Kate', last_name: 'Marsden', email: 'kate.marsden@example.org' } })).data!.data;
  const template = (await api.GET('/templates')).data!.data[0]!;
  const created = await api.POST('/reference-requests', {
    body: {
      candidate_id: candidate.id,
      template_id: template.id,
      collection_mode: 'client_adds',
      referees: [
        {
          referee_name: 'Dr Jane Smith',
          referee_email: 'jane.smith@nhs.example',
          referee_organisation: 'Riverside NHS Foundation Trust',
          referee_position: 'Ward Manager',
        },
      ],
    },
  });
  expect(created.response.status).toBe(201);
  const request = created.data!.data;
  expect(request.references.map((r) => r.referee_email)).toEqual(['jane.smith@nhs.example']);

  const added = await api.POST('/reference-requests/{id}/referees', {
    params: { path: { id: request.id } },
    body: {
      referee_name: 'Tom Okoro',
      referee_email: 'tom.okoro@carehomes.example',
      referee_organisation: 'Elmwood Care Homes',
      referee_position: 'Deputy Manager',
    },
  });
  expect(added.data!.data.references).toHaveLength(2);
  const mine = await api.GET('/reference-requests', { params: { query: { candidate_id: candidate.id } } });
  expect(mine.data!.data.map((r) => r.id)).toEqual([request.id]);
  const reference = await api.GET('/references/{id}', { params: { path: { id: request.references[0]!.id } } });
  expect(reference.data!.data.status).toBe('sent');
});

it("runs the typed client's example as an integrator would: it books an interview and prints it", async () => {
  const { execFile } = await import('node:child_process');
  const { PROJECT_ROOT } = await import('../../lib/routes.js');
  const output = await new Promise<string>((resolve, reject) =>
    execFile(
      process.execPath,
      ['--import', 'tsx', 'clients/typescript/examples/book-interview.ts'],
      { cwd: PROJECT_ROOT, env: { ...process.env, API_URL: stack.info.base_url, CLIENT_ID: 'demo-riverside', CLIENT_SECRET: 'cs_demo_riverside_local_only' } },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)),
    ),
  );
  const printed = JSON.parse(output.trim().split('\n').at(-1)!) as { id: number; booking_status: string };
  expect(printed).toMatchObject({ id: expect.any(Number), booking_status: 'booked', interview_type: 'Registered Nurse clinical interview' });
  const anonymous = createClient<ClinicalPaths>({ baseUrl: base('clinical-interview') });
  const { data: pair } = await anonymous.POST('/auth/token', { body: DEMO_CREDENTIALS.riverside });
  const api = createClient<ClinicalPaths>({ baseUrl: base('clinical-interview'), headers: { authorization: `Bearer ${pair!.access_token}` } });
  expect((await api.GET('/bookings/{id}', { params: { path: { id: printed.id } } })).data?.candidate.name).toBe('Ada Nightingale');
}, 60_000);
