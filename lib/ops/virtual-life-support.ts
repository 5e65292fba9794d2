import { findBookingIn } from '../../functions/core/bookings/records.js';
import { topUpCredits, topUpMoney } from '../../functions/core/commerce/wallets.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { toVlsBookingView, type VlsBooking } from '../../functions/core/virtual-life-support/bookings.js';
import {
  createCourse,
  createSessions,
  getVlsSession,
  loadCourses,
  setCourseActive,
  toVlsCourseView,
  updateCourse,
  VLS_FAMILY,
} from '../../functions/core/virtual-life-support/catalogue.js';
import { issueVlsCertificate } from '../../functions/core/virtual-life-support/certificates.js';
import { recordDelivery, recordDispatch, recordReturned, recordReturnShipped, sweepEquipment } from '../../functions/core/virtual-life-support/equipment.js';
import {
  cancelVlsBooking,
  cancelVlsSession,
  markVlsAttendance,
  markVlsResult,
  operatorView,
  rescheduleVls,
} from '../../functions/core/virtual-life-support/operator.js';
import { resourcesWere, type OpsArea, type OpsCommand, type OpsKit } from './kit.js';

/**
 * The virtual life-support operator commands (`ops virtual-life-support …`):
 * courses and sessions; attendance, results, certificates, reschedules and
 * cancellations; the manikin's dispatch and return; credits and money.
 */

export const VLS_OPTIONS = {
  equipment: { type: 'string' },
  seats: { type: 'string' },
  instructor: { type: 'string' },
  weekly: { type: 'string' },
  session: { type: 'string' },
  carrier: { type: 'string' },
  tracking: { type: 'string' },
  url: { type: 'string' },
  'late-fee': { type: 'string' },
  'lost-fee': { type: 'string' },
} as const;

export function virtualLifeSupportCommands(k: OpsKit): Record<string, OpsCommand> {
  const yesNo = (n: string) => k.oneOf(n, ['yes', 'no'] as const) === 'yes';
  const booking = async (deps: Deps, change: (deps: Deps, id: number) => Promise<VlsBooking>) => k.print(operatorView(deps, await change(deps, k.int('id'))));
  const course = async (deps: Deps, id: number) =>
    (await loadCourses(deps)).find((c) => c.id === id) ??
    (() => {
      throw new DomainError('not-found', `No course ${id}`);
    })();
  return {
    'courses add': {
      options: ['name', 'code', 'duration', 'price', 'equipment', 'months', 'free-hours', 'seats', 'late-fee', 'lost-fee'],
      args: '--name NAME --code CODE --duration MINUTES --price PENCE --equipment yes|no [--months 12] [--free-hours 72] [--seats 6] [--late-fee 2500] [--lost-fee 10000]',
      about: 'define a course',
      run: async () =>
        k.print(
          toVlsCourseView(
            await createCourse(k.deps(), {
              name: k.text('name'),
              code: k.text('code'),
              duration_minutes: k.int('duration'),
              price_minor: k.int('price'),
              equipment_required: yesNo('equipment'),
              certificate_validity_months: k.optional('months', k.int),
              free_cancellation_hours: k.optional('free-hours', k.int),
              seats_per_session: k.optional('seats', k.int),
              late_fee_minor: k.optional('late-fee', k.int),
              lost_fee_minor: k.optional('lost-fee', k.int),
            }),
          ),
        ),
    },
    'courses update': {
      options: ['id', 'name', 'price', 'equipment', 'months', 'free-hours', 'seats', 'late-fee', 'lost-fee'],
      args: '--id ID [--name NAME] [--price PENCE] [--equipment yes|no] [--months N] [--free-hours N] [--seats N] [--late-fee PENCE] [--lost-fee PENCE]',
      about: 'change a course for bookings from now on',
      run: async () =>
        k.print(
          toVlsCourseView(
            await updateCourse(k.deps(), k.int('id'), {
              name: k.optional('name', k.text),
              price_minor: k.optional('price', k.int),
              equipment_required: k.optional('equipment', yesNo),
              certificate_validity_months: k.optional('months', k.int),
              free_cancellation_hours: k.optional('free-hours', k.int),
              seats_per_session: k.optional('seats', k.int),
              late_fee_minor: k.optional('late-fee', k.int),
              lost_fee_minor: k.optional('lost-fee', k.int),
            }),
          ),
        ),
    },
    'courses deactivate': {
      options: ['id'],
      args: '--id ID',
      about: 'stop offering a course (bookings stay)',
      run: async () => {
        await setCourseActive(k.deps(), k.int('id'), false);
        console.log(`Course ${k.int('id')} is no longer offered`);
      },
    },
    'courses list': { options: [], args: '', about: 'list courses (with inactive ones)', run: async () => k.print(await loadCourses(k.deps())) },
    'sessions add': {
      options: ['course', 'date', 'time', 'seats', 'instructor', 'weekly'],
      args: '--course ID --date YYYY-MM-DD --time HH:MM [--seats N] [--instructor NAME] [--weekly N]',
      about: 'schedule a session (N weeks running)',
      run: async () =>
        k.print(
          await createSessions(k.deps(), {
            course_id: k.int('course'),
            date: k.date('date'),
            start_time: k.text('time'),
            seats: k.optional('seats', k.int),
            instructor: k.optional('instructor', k.text) ?? null,
            weekly: k.optional('weekly', k.int),
          }),
        ),
    },
    'sessions show': {
      options: ['id'],
      args: '--id ID',
      about: 'a session with its counters and video room',
      run: async () =>
        k.print(
          (await getVlsSession(k.deps(), k.int('id'))) ??
            (() => {
              throw new DomainError('not-found', `No session ${k.int('id')}`);
            })(),
        ),
    },
    'sessions cancel': {
      options: ['id', 'reason'],
      args: '--id ID [--reason TEXT]',
      about: 'cancel a session not yet started: every booking cancelled, refunded in full, booking.cancelled to each',
      run: async () => k.print(await cancelVlsSession(k.deps(), k.int('id'), k.optional('reason', k.text))),
    },
    'bookings show': {
      options: ['id'],
      args: '--id ID',
      about: 'a booking as the agency sees it, with its client',
      run: async () => {
        const deps = k.deps();
        const b = await findBookingIn<VlsBooking>(deps, VLS_FAMILY, k.int('id'));
        k.print({ client_id: b.client_id, ...toVlsBookingView(b, deps.config.serviceTimeZone) });
      },
    },
    'bookings attendance': {
      options: ['id', 'status'],
      args: '--id ID --status attended|no_show',
      about: 'once the session has started',
      run: async () => k.print(await markVlsAttendance(k.deps(), k.int('id'), k.oneOf('status', ['attended', 'no_show'] as const))),
    },
    'bookings result': {
      options: ['id', 'result'],
      args: '--id ID --result passed|not_passed',
      about: 'for an attended booking',
      run: async () => k.print(await markVlsResult(k.deps(), k.int('id'), k.oneOf('result', ['passed', 'not_passed'] as const))),
    },
    'bookings certificate': {
      options: ['id'],
      args: '--id ID',
      about: 'issue the certificate (attended and passed only; unreturned kit does not matter)',
      run: () => booking(k.deps(), issueVlsCertificate),
    },
    'bookings reschedule': {
      options: ['id', 'session'],
      args: '--id ID --session ID',
      about: 'move to another session of the same course (return due date follows)',
      run: async () => k.print(await rescheduleVls(k.deps(), k.int('id'), k.int('session'))),
    },
    'bookings cancel': {
      options: ['id', 'reason'],
      args: '--id ID [--reason TEXT]',
      about: 'cancel (refunded before free_cancellation_until, never for a no-show; kit not yet posted is not posted)',
      run: async () => k.print(await cancelVlsBooking(k.deps(), k.int('id'), k.optional('reason', k.text))),
    },
    'equipment dispatch': {
      options: ['id', 'carrier', 'tracking', 'url'],
      args: '--id ID --carrier NAME --tracking NUMBER [--url URL]',
      about: 'the manikin is posted; the candidate is e-mailed the tracking',
      run: () =>
        booking(k.deps(), (deps, id) =>
          recordDispatch(deps, id, { carrier: k.text('carrier'), tracking_number: k.text('tracking'), tracking_url: k.optional('url', k.text) ?? null }),
        ),
    },
    'equipment delivered': { options: ['id'], args: '--id ID', about: 'the carrier delivered it', run: () => booking(k.deps(), recordDelivery) },
    'equipment return-shipped': {
      options: ['id', 'carrier', 'tracking'],
      args: '--id ID --carrier NAME --tracking NUMBER',
      about: 'the candidate posted it back (on time if by its due date)',
      run: () => booking(k.deps(), (deps, id) => recordReturnShipped(deps, id, { carrier: k.text('carrier'), tracking_number: k.text('tracking') })),
    },
    'equipment returned': {
      options: ['id'],
      args: '--id ID',
      about: 'received back (a lost fee charged is refunded; a late fee stays)',
      run: () => booking(k.deps(), recordReturned),
    },
    'equipment sweep': { options: [], args: '', about: 'run the overdue/lost sweep now', run: async () => k.print(await sweepEquipment(k.deps())) },
    'credits topup': {
      options: ['client-id', 'course', 'credits', 'reason'],
      args: '--client-id ID --course ID --credits N [--reason TEXT]',
      about: 'add virtual life-support credits for a course',
      run: async () => {
        const deps = k.deps();
        const c = await course(deps, k.int('course'));
        const credits = await topUpCredits(deps, k.text('client-id'), VLS_FAMILY, { ...c, kind: 'course' }, k.int('credits'), k.optional('reason', k.text), {
          requireClient: true,
        });
        k.print({ client_id: k.text('client-id'), course: { id: c.id, name: c.name }, credits });
      },
    },
    'money topup': {
      options: ['client-id', 'pence', 'reason'],
      args: '--client-id ID --pence N [--reason TEXT]',
      about: 'add to the virtual life-support money balance',
      run: async () => {
        const amount = await topUpMoney(k.deps(), k.text('client-id'), VLS_FAMILY, k.int('pence'), k.optional('reason', k.text), { requireClient: true });
        k.print({ client_id: k.text('client-id'), money: { amount, currency: 'GBP' } });
      },
    },
  };
}

export const virtualLifeSupportOps: OpsArea = {
  family: 'virtual-life-support',
  options: VLS_OPTIONS,
  commands: virtualLifeSupportCommands,
  formerly: resourcesWere({
    courses: 'vls-course',
    sessions: 'vls-session',
    bookings: 'vls-booking',
    equipment: 'vls-equipment',
    credits: 'vls-credits',
    money: 'vls-money',
  }),
};
