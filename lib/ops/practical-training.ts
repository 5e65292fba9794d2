import { issueCertificate } from '../../functions/core/practical-training/certificates.js';
import { topUpCredits, topUpMoney } from '../../functions/core/commerce/wallets.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { setBalanceAlertSettings } from '../../functions/core/practical-training/account.js';
import {
  createCourse,
  createLocation,
  createTrainingEvent,
  loadCatalogue,
  PRACTICAL_FAMILY,
  setCourseActive,
  setLocationActive,
  updateCourse,
  updateLocation,
} from '../../functions/core/practical-training/catalogue.js';
import { cancelPractical } from '../../functions/core/practical-training/booking-changes.js';
import { toPracticalBookingView } from '../../functions/core/practical-training/bookings.js';
import { findBookingIn } from '../../functions/core/bookings/records.js';
import { getTrainingEvent } from '../../functions/core/practical-training/events.js';
import {
  cancelTrainingEvent,
  markPracticalAttendance,
  markPracticalResult,
  reschedulePractical,
  setEventCapacity,
} from '../../functions/core/practical-training/operator.js';
import { toCourseView, toLocationView } from '../../functions/core/practical-training/views.js';
import { resourcesWere, type OpsArea, type OpsCommand, type OpsKit } from './kit.js';

/**
 * The practical training family's operator commands (`ops practical-training …`):
 * courses, locations and events; attendance, results, reschedules and
 * cancellations; credits, money and balance alert thresholds.
 */

export const PRACTICAL_OPTIONS = {
  code: { type: 'string' },
  months: { type: 'string' },
  'free-hours': { type: 'string' },
  subject: { type: 'string' },
  line1: { type: 'string' },
  town: { type: 'string' },
  postcode: { type: 'string' },
  region: { type: 'string' },
  directions: { type: 'string' },
  accessibility: { type: 'string' },
  course: { type: 'string' },
  location: { type: 'string' },
  capacity: { type: 'string' },
  event: { type: 'string' },
  result: { type: 'string' },
  'credits-low-at': { type: 'string' },
  'money-low-at': { type: 'string' },
} as const;

export function practicalTrainingCommands(k: OpsKit): Record<string, OpsCommand> {
  const course = async (deps: Deps, id: number) => {
    const found = (await loadCatalogue(deps)).courses.find((c) => c.id === id);
    if (!found) throw new DomainError('not-found', `No course ${id}`);
    return found;
  };
  const booking = (deps: Deps) => findBookingIn(deps, PRACTICAL_FAMILY, k.int('id'));
  return {
    'courses add': {
      options: ['name', 'code', 'duration', 'months', 'price', 'free-hours', 'subject'],
      args: '--name NAME --code CODE --duration MINUTES --months N --price PENCE [--free-hours 72] [--subject resuscitation|moving_and_handling|violence_and_aggression]',
      about: 'define a course',
      run: async () =>
        k.print(
          toCourseView(
            await createCourse(k.deps(), {
              name: k.text('name'),
              code: k.text('code'),
              duration_minutes: k.int('duration'),
              certificate_validity_months: k.int('months'),
              price_minor: k.int('price'),
              free_cancellation_hours: k.optional('free-hours', k.int),
              cstf_subject: k.optional('subject', (n) => k.oneOf(n, ['resuscitation', 'moving_and_handling', 'violence_and_aggression'] as const)),
            }),
          ),
        ),
    },
    'courses list': { options: [], args: '', about: 'list courses (with inactive ones)', run: async () => k.print((await loadCatalogue(k.deps())).courses) },
    'courses update': {
      options: ['id', 'name', 'price', 'free-hours', 'months'],
      args: '--id ID [--name NAME] [--price PENCE] [--free-hours N] [--months N]',
      about: 'change a course for bookings from now on',
      run: async () =>
        k.print(
          toCourseView(
            await updateCourse(k.deps(), k.int('id'), {
              name: k.optional('name', k.text),
              price_minor: k.optional('price', k.int),
              free_cancellation_hours: k.optional('free-hours', k.int),
              certificate_validity_months: k.optional('months', k.int),
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
    'locations add': {
      options: ['name', 'line1', 'town', 'postcode', 'region'],
      args: '--name NAME --line1 TEXT --town TOWN --postcode POSTCODE [--region TEXT]',
      about: 'add a training location',
      run: async () =>
        k.print(
          toLocationView(
            await createLocation(k.deps(), {
              name: k.text('name'),
              region: k.optional('region', k.text) ?? null,
              address: { line1: k.text('line1'), line2: null, town: k.text('town'), postcode: k.text('postcode') },
            }),
          ),
        ),
    },
    'locations update': {
      options: ['id', 'name', 'directions', 'accessibility'],
      args: '--id ID [--name NAME] [--directions TEXT] [--accessibility TEXT]',
      about: 'change how a location is described',
      run: async () =>
        k.print(
          toLocationView(
            await updateLocation(k.deps(), k.int('id'), {
              name: k.optional('name', k.text),
              directions: k.optional('directions', k.text),
              accessibility: k.optional('accessibility', k.text),
            }),
          ),
        ),
    },
    'locations deactivate': {
      options: ['id'],
      args: '--id ID',
      about: 'stop using a location',
      run: async () => {
        await setLocationActive(k.deps(), k.int('id'), false);
        console.log(`Location ${k.int('id')} is no longer used`);
      },
    },
    'events add': {
      options: ['course', 'location', 'date', 'time', 'capacity'],
      args: '--course ID --location ID --date YYYY-MM-DD --time HH:MM --capacity N',
      about: 'open a training event',
      run: async () => {
        const deps = k.deps();
        const e = await createTrainingEvent(deps, {
          course_id: k.int('course'),
          location_id: k.int('location'),
          date: k.date('date'),
          start_time: k.text('time'),
          capacity: k.int('capacity'),
        });
        k.print(await getTrainingEvent(deps, e.id));
      },
    },
    'events show': {
      options: ['id'],
      args: '--id ID',
      about: 'a training event as agencies see it',
      run: async () => k.print(await getTrainingEvent(k.deps(), k.int('id'))),
    },
    'events capacity': {
      options: ['id', 'capacity'],
      args: '--id ID --capacity N',
      about: 'raise, or lower (never below what is booked): bookings and holds on the seats cut move to seats kept',
      run: async () => k.print(await setEventCapacity(k.deps(), k.int('id'), k.int('capacity'))),
    },
    'events cancel': {
      options: ['id', 'reason'],
      args: '--id ID [--reason TEXT]',
      about: 'cancel an event not yet started: every booking cancelled, refunded in full, booking.cancelled to each',
      run: async () => k.print(await cancelTrainingEvent(k.deps(), k.int('id'), k.optional('reason', k.text))),
    },
    'bookings attendance': {
      options: ['id', 'status'],
      args: '--id ID --status attended|no_show',
      about: 'once the training has started',
      run: async () => k.print(await markPracticalAttendance(k.deps(), k.int('id'), k.oneOf('status', ['attended', 'no_show'] as const))),
    },
    'bookings result': {
      options: ['id', 'result'],
      args: '--id ID --result passed|not_passed',
      about: 'for an attended booking',
      run: async () => k.print(await markPracticalResult(k.deps(), k.int('id'), k.oneOf('result', ['passed', 'not_passed'] as const))),
    },
    'bookings certificate': {
      options: ['id'],
      args: '--id ID',
      about: 'issue the completion certificate (attended and passed only)',
      run: async () => {
        const deps = k.deps();
        k.print(toPracticalBookingView(await issueCertificate(deps, k.int('id')), deps.config.serviceTimeZone));
      },
    },
    'bookings reschedule': {
      options: ['id', 'event'],
      args: '--id ID --event ID',
      about: 'move to another event of the same course',
      run: async () => k.print(await reschedulePractical(k.deps(), k.int('id'), k.int('event'))),
    },
    'bookings cancel': {
      options: ['id', 'reason'],
      args: '--id ID [--reason TEXT]',
      about: 'cancel as the operator (refunded before free_cancellation_until, never for a no-show)',
      run: async () => {
        const deps = k.deps();
        const b = await booking(deps);
        k.print(await cancelPractical(deps, b.client_id, b.id, { by: 'operator', reason: k.optional('reason', k.text) }));
      },
    },
    'credits topup': {
      options: ['client-id', 'course', 'credits', 'reason'],
      args: '--client-id ID --course ID --credits N [--reason TEXT]',
      about: 'add practical training credits for a course',
      run: async () => {
        const deps = k.deps();
        const c = await course(deps, k.int('course'));
        const credits = await topUpCredits(
          deps,
          k.text('client-id'),
          PRACTICAL_FAMILY,
          { ...c, kind: 'course' },
          k.int('credits'),
          k.optional('reason', k.text),
          { requireClient: true },
        );
        k.print({ client_id: k.text('client-id'), course: { id: c.id, name: c.name }, credits });
      },
    },
    'money topup': {
      options: ['client-id', 'pence', 'reason'],
      args: '--client-id ID --pence N [--reason TEXT]',
      about: 'add to the practical training money balance',
      run: async () => {
        const amount = await topUpMoney(k.deps(), k.text('client-id'), PRACTICAL_FAMILY, k.int('pence'), k.optional('reason', k.text), { requireClient: true });
        k.print({ client_id: k.text('client-id'), money: { amount, currency: 'GBP' } });
      },
    },
    'alerts set': {
      options: ['client-id', 'credits-low-at', 'money-low-at'],
      args: '--client-id ID [--credits-low-at N] [--money-low-at PENCE]',
      about: 'balance alert thresholds (defaults 2 credits, 5000 pence)',
      run: async () =>
        k.print(
          await setBalanceAlertSettings(k.deps(), k.text('client-id'), {
            credits_low_at: k.optional('credits-low-at', k.int),
            money_low_at: k.optional('money-low-at', k.int),
          }),
        ),
    },
  };
}

export const practicalTrainingOps: OpsArea = {
  family: 'practical-training',
  options: PRACTICAL_OPTIONS,
  commands: practicalTrainingCommands,
  formerly: resourcesWere({
    courses: 'course',
    locations: 'location',
    events: 'event',
    bookings: 'training-booking',
    credits: 'training-credits',
    money: 'training-money',
    alerts: 'training-alerts',
  }),
};
