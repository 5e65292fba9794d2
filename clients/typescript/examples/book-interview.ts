import { signIn } from '../src/index.js';

/**
 * Books a clinical interview with the typed client: sign in, pick the first
 * interview type and its first free slot, hold it for 30 minutes, book it for
 * a candidate paid with the agency's credits, and print the booking.
 *
 *   API_URL=http://127.0.0.1:3000 CLIENT_ID=demo-northwind CLIENT_SECRET=cs_demo_northwind_local_only \
 *     node --import tsx clients/typescript/examples/book-interview.ts
 */

const rootUrl = process.env.API_URL ?? 'http://127.0.0.1:3000';
const api = await signIn('clinical-interview', rootUrl, {
  client_id: process.env.CLIENT_ID ?? 'demo-northwind',
  client_secret: process.env.CLIENT_SECRET ?? 'cs_demo_northwind_local_only',
});

const type = (await api.GET('/interview-types')).data?.data[0];
if (!type) throw new Error('No interview type is offered');
const slot = (await api.GET('/timeslots', { params: { query: { interview_type_id: type.id } } })).data?.data[0];
if (!slot) throw new Error(`No free slot for ${type.name} in the next two weeks`);

const held = await api.POST('/timeslots/hold', { body: { interview_type_id: type.id, date: slot.date, time: slot.time } });
if (!held.data) throw new Error(`Could not hold ${slot.date} ${slot.time}: ${JSON.stringify(held.error)}`);

const booked = await api.POST('/bookings', {
  params: { header: { 'Idempotency-Key': `example-${held.data.hold_hash}` } },
  body: {
    hold_hash: held.data.hold_hash,
    pay_option: 'credits',
    first_name: 'Ada',
    last_name: 'Nightingale',
    email: 'ada.nightingale@example.org',
    phone: '+447700900123',
    job_role: 'Registered Nurse',
    nmc_number: '12A3456B',
  },
});
if (!booked.data) throw new Error(`Could not book: ${JSON.stringify(booked.error)}`);
console.log(
  JSON.stringify({
    id: booked.data.id,
    interview_type: booked.data.interview_type.name,
    start_date: booked.data.start_date,
    booking_status: booked.data.booking_status,
  }),
);
