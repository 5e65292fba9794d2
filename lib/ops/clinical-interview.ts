import { cancelBooking, completeInterview, markAttendance, rescheduleBooking } from '../../functions/core/clinical-interview/booking-admin.js';
import { BOOKING_STATUSES, type BookingStatus } from '../../functions/core/bookings/bookings.js';
import {
  CLINICAL_FAMILY,
  createInterviewType,
  createInterviewer,
  loadCatalog,
  setAvailability,
  setInterviewTypeActive,
} from '../../functions/core/clinical-interview/catalog.js';
import { interviewerView, operatorBooking, operatorBookings, typeView, weekdayNumber } from '../../functions/core/clinical-interview/operator.js';
import { attachReport } from '../../functions/core/clinical-interview/report-uploads.js';
import { topUpCredits, topUpMoney } from '../../functions/core/commerce/wallets.js';
import { createS3Client } from '../../functions/core/documents/attach.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { UsageError, type OpsArea, type OpsCommand, type OpsKit } from './kit.js';

/** The clinical interview family's operator commands (`ops clinical-interview …`): interview types, interviewers, credits and money, bookings. */

export const CLINICAL_OPTIONS = {
  'type-id': { type: 'string' },
  id: { type: 'string' },
  duration: { type: 'string' },
  price: { type: 'string' },
  credits: { type: 'string' },
  pence: { type: 'string' },
  window: { type: 'string', multiple: true },
  reason: { type: 'string' },
  date: { type: 'string' },
  time: { type: 'string' },
  status: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  limit: { type: 'string' },
  file: { type: 'string' },
} as const;

export const clinicalInterviewCommands = (k: OpsKit): Record<string, OpsCommand> => ({
  'types create': {
    options: ['name', 'duration', 'price'],
    args: '--name NAME --duration MINUTES --price PENCE',
    about: 'define an interview type',
    run: async () =>
      k.print(typeView(await createInterviewType(k.deps(), { name: k.text('name'), durationMinutes: k.int('duration'), priceMinor: k.int('price') }))),
  },
  'types list': {
    options: [],
    args: '',
    about: 'list interview types',
    run: async () => k.print((await loadCatalog(k.deps())).types.map(typeView)),
  },
  'types deactivate': {
    options: ['id'],
    args: '--id ID',
    about: 'stop offering a type (bookings stay)',
    run: async () => {
      await setInterviewTypeActive(k.deps(), k.int('id'), false);
      console.log(`Interview type ${k.maybe('id')} is no longer offered`);
    },
  },
  'interviewers create': {
    options: ['name'],
    args: '--name NAME',
    about: 'add an interviewer',
    run: async () => k.print(interviewerView(await createInterviewer(k.deps(), k.text('name')))),
  },
  'interviewers list': {
    options: [],
    args: '',
    about: 'list interviewers and their weekly availability',
    run: async () => {
      const catalog = await loadCatalog(k.deps());
      k.print(catalog.interviewers.map((i) => interviewerView(i, catalog)));
    },
  },
  'interviewers availability': {
    options: ['id', 'window'],
    args: '--id ID --window "TYPE_ID DAY HH:MM-HH:MM" …',
    about: 'replace the weekly availability (DAY: mon…sun); prints what it replaced',
    run: async () => {
      const windows = k.list('window').map((w) => {
        const match = /^(\d+)\s+(mon|tue|wed|thu|fri|sat|sun)\s+(\d\d:\d\d)-(\d\d:\d\d)$/i.exec(w.trim());
        if (!match) throw new UsageError(`--window "${w}" is not "TYPE_ID DAY HH:MM-HH:MM"`);
        return { interviewTypeId: Number(match[1]), weekday: weekdayNumber(match[2]!), start: match[3]!, end: match[4]! };
      });
      const { deps } = k.target();
      const id = k.int('id');
      const before = (await loadCatalog(deps)).interviewers.find((i) => i.id === id);
      if (!before) throw new DomainError('not-found', `No interviewer ${id}`);
      await setAvailability(deps, id, windows);
      const after = await loadCatalog(deps);
      k.print({
        ...interviewerView(
          after.interviewers.find((i) => i.id === id)!,
          after,
        ),
        replaced: interviewerView(before, after).availability,
      });
    },
  },
  'credits topup': {
    options: ['client-id', 'type-id', 'credits', 'reason'],
    args: '--client-id ID --type-id ID --credits N [--reason TEXT]',
    about: 'add booking credits for an interview type',
    run: async () => {
      const { deps } = k.target();
      const type = (await loadCatalog(deps)).types.find((t) => t.id === k.int('type-id'));
      if (!type) throw new DomainError('not-found', `No interview type ${k.maybe('type-id')}`);
      const credits = await topUpCredits(deps, k.text('client-id'), CLINICAL_FAMILY, type, k.int('credits'), k.maybe('reason'), { requireClient: true });
      k.print({ client_id: k.maybe('client-id'), interview_type: { id: type.id, name: type.name }, credits });
    },
  },
  'money topup': {
    options: ['client-id', 'pence', 'reason'],
    args: '--client-id ID --pence N [--reason TEXT]',
    about: 'add to the booking money balance',
    run: async () => {
      const amount = await topUpMoney(k.deps(), k.text('client-id'), CLINICAL_FAMILY, k.int('pence'), k.maybe('reason'), { requireClient: true });
      k.print({ client_id: k.maybe('client-id'), money: { amount, currency: 'GBP' } });
    },
  },
  'bookings list': {
    options: ['client-id', 'status', 'from', 'to', 'limit'],
    args: '[--client-id ID] [--status STATUS] [--from DATE] [--to DATE] [--limit N]',
    about: "bookings, newest first (every client's without --client-id)",
    run: async () =>
      k.print(
        await operatorBookings(k.deps(), {
          clientId: k.maybe('client-id'),
          status: k.optional('status', (n) => k.oneOf<BookingStatus>(n, BOOKING_STATUSES)),
          from: k.optional('from', k.date),
          to: k.optional('to', k.date),
          limit: k.optional('limit', k.int) ?? 100,
        }),
      ),
  },
  'bookings show': {
    options: ['id'],
    args: '--id ID',
    about: 'one booking, as the agency sees it, with its client_id',
    run: async () => k.print(await operatorBooking(k.deps(), k.int('id'))),
  },
  'bookings cancel': {
    options: ['id', 'reason'],
    args: '--id ID [--reason TEXT]',
    about: 'cancel; credits or money go back',
    run: async () => k.print(await cancelBooking(k.deps(), k.int('id'), k.maybe('reason'))),
  },
  'bookings reschedule': {
    options: ['id', 'date', 'time'],
    args: '--id ID --date YYYY-MM-DD --time HH:MM',
    about: 'move to another free slot (to where it already is: nothing changes)',
    run: async () => {
      const { deps } = k.target();
      const before = await operatorBooking(deps, k.int('id'));
      const booking = await rescheduleBooking(deps, k.int('id'), { date: k.date('date'), time: k.text('time') });
      k.print(booking);
      if (booking.start_date === before.start_date)
        console.error(`Booking ${k.maybe('id')} is already on ${k.maybe('date')} at ${k.maybe('time')}: nothing changed`);
    },
  },
  'bookings attendance': {
    options: ['id', 'status'],
    args: '--id ID --status attended|no_show',
    about: 'mark attendance, once the interview has started',
    run: async () => k.print(await markAttendance(k.deps(), k.int('id'), k.oneOf('status', ['attended', 'no_show'] as const))),
  },
  'bookings complete': {
    options: ['id'],
    args: '--id ID',
    about: 'the interview took place (refused before it starts)',
    run: async () => k.print(await completeInterview(k.deps(), k.int('id'))),
  },
  'bookings attach-report': {
    options: ['id', 'file'],
    args: '--id ID --file REPORT.pdf',
    about: 'attach the interview report of a completed interview',
    run: async () => {
      const report = k.file('file');
      k.print(await attachReport(k.deps(), createS3Client(), k.int('id'), report));
    },
  },
});

/** Before the `ops <family> <resource> <action>` grammar these had no family word (`bookings cancel`). */
export const clinicalInterviewOps: OpsArea = {
  family: 'clinical-interview',
  options: CLINICAL_OPTIONS,
  commands: clinicalInterviewCommands,
  formerly: (name) => name,
};
