import type * as v from 'valibot';
import type { Example } from './examples.js';
import * as R from './responses.js';

/** Example resources of the course families (practical training, its legacy booking link, virtual life-support), for their OpenAPI documents. */

const COURSE_REF = { id: 1, name: 'Basic Life Support (adult)', code: 'BLS-A' };
const LOCATION_REF = { id: 1, name: 'Riverside Training Centre', town: 'Leeds', postcode: 'LS1 4AP' };

export const TRAINING_EVENT = {
  id: 17,
  course: COURSE_REF,
  location: LOCATION_REF,
  date: '2026-12-08',
  start_time: '09:30',
  start_at: '2026-12-08T09:30:00+00:00',
  end_at: '2026-12-08T13:30:00+00:00',
  booking_closes_at: '2026-12-07T09:30:00+00:00',
  free_cancellation_until: '2026-12-05T09:30:00+00:00',
  capacity: 12,
  seats_available: 7,
  status: 'open',
  price: { amount: 6500, currency: 'GBP' },
};

export const SEAT_HOLD = {
  hold_hash: 'q3UCTyA1v0ZT3tTzq8oE8b4M6W1h2qgLk7mB4Z1J9aA',
  expires_at: '2026-11-20T10:30:00+00:00',
  expires_in_seconds: 1800,
  training_event: { id: 17, course: COURSE_REF, location: LOCATION_REF, start_at: TRAINING_EVENT.start_at, end_at: TRAINING_EVENT.end_at },
};

export const PRACTICAL_BOOKING = {
  id: 214,
  booking_invite_id: null,
  candidate: { name: 'Tom Okoro', email: 'tom.okoro@example.org', phone: '+447700900321', job_role: 'Healthcare Assistant', nmc_number: null },
  course: COURSE_REF,
  training_event: { id: 17, date: '2026-12-08', start_time: '09:30', start_at: TRAINING_EVENT.start_at, end_at: TRAINING_EVENT.end_at, location: LOCATION_REF },
  agency_contact: { name: 'Sam Rota', email: 'sam@northwind-care.example' },
  start_date: TRAINING_EVENT.start_at,
  end_date: TRAINING_EVENT.end_at,
  free_cancellation_until: TRAINING_EVENT.free_cancellation_until,
  payment_due_at: null,
  booking_status: 'booked',
  training_status: 'scheduled',
  attendance: 'pending',
  result: 'pending',
  pay_status: 'completed',
  pay_option: 'credits',
  booked_by: 'Agency',
  price: { amount: 6500, currency: 'GBP' },
  certificate_available: false,
  certificate: null,
  cancellation: null,
  created_at: '2026-11-20T10:02:41+00:00',
  updated_at: '2026-11-20T10:02:41+00:00',
};

const VLS_COURSE_REF = { id: 1, name: 'Virtual adult BLS with manikin' };

export const VLS_HOLD = {
  hold_hash: 'Zt4c1v8Wm0aQ2xYk9pLr3sB6nE5uJ7hG1dF0oI2qK4w',
  expires_at: '2026-11-20T10:30:00+00:00',
  expires_in_seconds: 1800,
  slot: { date: '2026-12-08', time: '10:00', course: VLS_COURSE_REF },
};

const { training_event: _event, ...COURSE_BOOKING } = PRACTICAL_BOOKING;
export const VLS_BOOKING = {
  ...COURSE_BOOKING,
  id: 57,
  candidate: { name: 'Grace Adeyemi', email: 'grace.adeyemi@example.org', phone: '+447700900456', job_role: 'Registered Nurse', nmc_number: '12A3456B' },
  course: VLS_COURSE_REF,
  timeslot: { date: '2026-12-08', time: '10:00' },
  start_date: '2026-12-08T10:00:00+00:00',
  end_date: '2026-12-08T13:00:00+00:00',
  free_cancellation_until: '2026-12-05T10:00:00+00:00',
  price: { amount: 7500, currency: 'GBP' },
  video_meeting: { meeting_id: '4815162342', join_link: 'https://meet.jit.si/vls-session-12-4815162342', password: 'q8Zr2xMk' },
  delivery_address: { line1: '4 Mill Road', line2: null, town: 'Leeds', postcode: 'LS6 2AB' },
  equipment: {
    status: 'dispatched',
    dispatch: { carrier: 'Royal Mail', tracking_number: 'AB123456789GB', tracking_url: null, dispatched_at: '2026-12-02T16:20:00+00:00', delivered_at: null },
    return: { due_at: '2026-12-15T13:00:00+00:00', carrier: null, tracking_number: null, shipped_at: null, returned_at: null },
    fees: [],
  },
  updated_at: '2026-12-02T16:20:00+00:00',
};

/** The usual example of each course response shape. */
export const COURSE_EXAMPLES: [v.GenericSchema, Example][] = [
  [
    R.Course,
    {
      ...COURSE_REF,
      description: 'Adult basic life support and AED, to the Resuscitation Council UK guidelines.',
      delivery: 'face_to_face',
      cstf_subject: 'resuscitation',
      pre_attendance_notes: null,
      duration_minutes: 240,
      certificate_validity_months: 12,
      free_cancellation_hours: 72,
      price: { amount: 6500, currency: 'GBP' },
    },
  ],
  [
    R.Location,
    {
      id: 1,
      name: 'Riverside Training Centre',
      region: 'Yorkshire and the Humber',
      directions: 'Five minutes from Leeds station; enter from Water Lane.',
      accessibility: 'Step-free access and a hearing loop.',
      address: { line1: '12 Water Lane', line2: null, town: 'Leeds', postcode: 'LS1 4AP' },
    },
  ],
  [R.TrainingEvent, TRAINING_EVENT],
  [R.SeatHold, SEAT_HOLD],
  [R.PracticalBooking, PRACTICAL_BOOKING],
  [R.BookingLink, { course: COURSE_REF, booking_url: 'https://api.northwind-care.example/practical-training/book/Xq2v9LmT0aBcDeFgHiJkLmNo?course_id=1' }],
  [R.CourseBalances, { credits: [{ course: { id: 1, name: COURSE_REF.name }, credits: 8 }], money: { amount: 50000, currency: 'GBP' } }],
  [
    R.CourseLedgerEntry,
    {
      id: 'led_7f1c0a2b9d8e4f5a8b6c3d2e1f0a9b8c',
      client_id: 'northwind-care',
      created_at: '2026-11-20T10:02:41+00:00',
      kind: 'credit_debit',
      amount: -1,
      unit: 'credits',
      balance_after: 7,
      booking_id: 214,
      course: { id: 1, name: COURSE_REF.name },
      note: null,
      family: 'practical-training',
      product: { kind: 'course', id: 1, name: COURSE_REF.name },
      pay_option: 'credits',
      provider_reference: null,
      refund_status: null,
    },
  ],
  [
    R.VlsCourse,
    {
      ...VLS_COURSE_REF,
      code: 'VBLS-M',
      description: 'Adult basic life support by live video, practised on a feedback manikin posted to the candidate.',
      delivery: 'virtual',
      cstf_subject: 'resuscitation',
      pre_attendance_notes: 'Camera and microphone on throughout; a test at the end.',
      duration_minutes: 180,
      certificate_validity_months: 12,
      free_cancellation_hours: 72,
      seats_per_session: 6,
      equipment_required: true,
      price: { amount: 7500, currency: 'GBP' },
      equipment_fees: { late_return: { amount: 2500, currency: 'GBP' }, lost: { amount: 10000, currency: 'GBP' } },
    },
  ],
  [R.VlsTimeslot, { date: '2026-12-08', time: '10:00', course: VLS_COURSE_REF, seats_available: 4 }],
  [R.VlsHold, VLS_HOLD],
  [R.VlsBooking, VLS_BOOKING],
  [
    R.VlsLedgerEntry,
    {
      id: 'led_3b9d2c1a0f8e4d7c9b6a5f4e3d2c1b0a',
      client_id: 'northwind-care',
      created_at: '2026-12-15T14:00:03+00:00',
      kind: 'money_debit',
      amount: -2500,
      unit: 'GBP',
      balance_after: 42500,
      booking_id: 57,
      course: VLS_COURSE_REF,
      note: null,
      family: 'virtual-life-support',
      product: { kind: 'course', ...VLS_COURSE_REF },
      pay_option: null,
      provider_reference: null,
      refund_status: null,
      fee: 'equipment_late',
    },
  ],
];
