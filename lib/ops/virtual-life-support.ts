import { findBookingIn } from '../../functions/core/bookings/records.js';
import { topUpCredits, topUpMoney } from '../../functions/core/commerce/wallets.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { toVlsBookingView, type VlsBooking } from '../../functions/core/virtual-life-support/bookings.js';
import { createCourse, createSessions, getVlsSession, loadCourses, setCourseActive, toVlsCourseView, updateCourse, VLS_FAMILY } from '../../functions/core/virtual-life-support/catalogue.js';
import { issueVlsCertificate } from '../../functions/core/virtual-life-support/certificates.js';
import { recordDelivery, recordDispatch, recordReturned, recordReturnShipped, sweepEquipment } from '../../functions/core/virtual-life-support/equipment.js';
import { cancelVlsBooking, cancelVlsSession, markVlsAttendance, markVlsResult, operatorView, rescheduleVls } from '../../functions/core/virtual-life-support/operator.js';
import type { OpsCommand, OpsKit } from './kit.js';

/**
 * The virtual life-support operator commands, registered by bin/ops.ts:
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
  const course = async (deps: Deps, id: number) => (await loadCourses(deps)).find((c) => c.id === id) ?? (() => { throw new DomainError('not-found', `No course ${id}`); })();
  return {
    'vls-course add': {
      options: ['name', 'code', 'duration', 'price', 'equipment', 'months', 'free-hours', 'seats', 'late-fee', 'lost-fee'],
      usage: '--name NAME --code CODE --duration MINUTES --price PENCE --equipment yes|no [--months 12] [--free-hours 72] [--seats 6] [--late-fee 2500] [--lost-fee 10000]   define a course',
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
    'vls-course update': {
      options: ['id', 'name', 'price', 'equipment', 'months', 'free-hours', 'seats', 'late-fee', 'lost-fee'],
      usage: '--id ID [--name NAME] [--price PENCE] [--equipment yes|no] [--months N] [--free-hours N] [--seats N] [--late-fee PENCE] [--lost-fee PENCE]   change a course for bookings from now on',
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
    'vls-course deactivate': {
      options: ['id'],
      usage: '--id ID   stop offering a course (bookings stay)',
      run: async () => {
        await setCourseActive(k.deps(), k.int('id'), false);
        console.log(`Course ${k.int('id')} is no longer offered`);
      },
    },
    'vls-course list': { options: [], usage: '   list courses (with inactive ones)', run: async () => k.print(await loadCourses(k.deps())) },
    'vls-session add': {
      options: ['course', 'date', 'time', 'seats', 'instructor', 'weekly'],
      usage: '--course ID --date YYYY-MM-DD --time HH:MM [--seats N] [--instructor NAME] [--weekly N]   schedule a session (N weeks running)',
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
    'vls-session show': {
      options: ['id'],
      usage: '--id ID   a session with its counters and video room',
      run: async () => k.print((await getVlsSession(k.deps(), k.int('id'))) ?? (() => { throw new DomainError('not-found', `No session ${k.int('id')}`); })()),
    },
    'vls-session cancel': {
      options: ['id', 'reason'],
      usage: '--id ID [--reason TEXT]   cancel a session not yet started: every booking cancelled, refunded in full, booking.cancelled to each',
      run: async () => k.print(await cancelVlsSession(k.deps(), k.int('id'), k.optional('reason', k.text))),
    },
    'vls-booking show': {
      options: ['id'],
      usage: '--id ID   a booking as the agency sees it, with its client',
      run: async () => {
        const deps = k.deps();
        const b = await findBookingIn<VlsBooking>(deps, VLS_FAMILY, k.int('id'));
        k.print({ client_id: b.client_id, ...toVlsBookingView(b, deps.config.serviceTimeZone) });
      },
    },
    'vls-booking attendance': {
      options: ['id', 'status'],
      usage: '--id ID --status attended|no_show   once the session has started',
      run: async () => k.print(await markVlsAttendance(k.deps(), k.int('id'), k.oneOf('status', ['attended', 'no_show'] as const))),
    },
    'vls-booking result': {
      options: ['id', 'result'],
      usage: '--id ID --result passed|not_passed   for an attended booking',
      run: async () => k.print(await markVlsResult(k.deps(), k.int('id'), k.oneOf('result', ['passed', 'not_passed'] as const))),
    },
    'vls-booking certificate': {
      options: ['id'],
      usage: '--id ID   issue the certificate (attended and passed only; unreturned kit does not matter)',
      run: () => booking(k.deps(), issueVlsCertificate),
    },
    'vls-booking reschedule': {
      options: ['id', 'session'],
      usage: '--id ID --session ID   move to another session of the same course (return due date follows)',
      run: async () => k.print(await rescheduleVls(k.deps(), k.int('id'), k.int('session'))),
    },
    'vls-booking cancel': {
      options: ['id', 'reason'],
      usage: '--id ID [--reason TEXT]   cancel (refunded before free_cancellation_until, never for a no-show; kit not yet posted is not posted)',
      run: async () => k.print(await cancelVlsBooking(k.deps(), k.int('id'), k.optional('reason', k.text))),
    },
    'vls-equipment dispatch': {
      options: ['id', 'carrier', 'tracking', 'url'],
      usage: '--id ID --carrier NAME --tracking NUMBER [--url URL]   the manikin is posted; the candidate is e-mailed the tracking',
      run: () => booking(k.deps(), (deps, id) => recordDispatch(deps, id, { carrier: k.text('carrier'), tracking_number: k.text('tracking'), tracking_url: k.optional('url', k.text) ?? null })),
    },
    'vls-equipment delivered': { options: ['id'], usage: '--id ID   the carrier delivered it', run: () => booking(k.deps(), recordDelivery) },
    'vls-equipment return-shipped': {
      options: ['id', 'carrier', 'tracking'],
      usage: '--id ID --carrier NAME --tracking NUMBER   the candidate posted it back (on time if by its due date)',
      run: () => booking(k.deps(), (deps, id) => recordReturnShipped(deps, id, { carrier: k.text('carrier'), tracking_number: k.text('tracking') })),
    },
    'vls-equipment returned': { options: ['id'], usage: '--id ID   received back (a lost fee charged is refunded; a late fee stays)', run: () => booking(k.deps(), recordReturned) },
    'vls-equipment sweep': { options: [], usage: '   run the overdue/lost sweep now', run: async () => k.print(await sweepEquipment(k.deps())) },
    'vls-credits topup': {
      options: ['client-id', 'course', 'credits', 'reason'],
      usage: '--client-id ID --course ID --credits N [--reason TEXT]   add virtual life-support credits for a course',
      run: async () => {
        const deps = k.deps();
        const c = await course(deps, k.int('course'));
        const credits = await topUpCredits(deps, k.text('client-id'), VLS_FAMILY, { ...c, kind: 'course' }, k.int('credits'), k.optional('reason', k.text), { requireClient: true });
        k.print({ client_id: k.text('client-id'), course: { id: c.id, name: c.name }, credits });
      },
    },
    'vls-money topup': {
      options: ['client-id', 'pence', 'reason'],
      usage: '--client-id ID --pence N [--reason TEXT]   add to the virtual life-support money balance',
      run: async () => {
        const amount = await topUpMoney(k.deps(), k.text('client-id'), VLS_FAMILY, k.int('pence'), k.optional('reason', k.text), { requireClient: true });
        k.print({ client_id: k.text('client-id'), money: { amount, currency: 'GBP' } });
      },
    },
  };
}
