import { DomainError } from '../../core/platform/errors.js';
import type { FamilyId } from '../../core/platform/families.js';
import * as clinicalInterview from './clinical-interview.js';
import * as practicalTrainingPublic from './practical-training-public.js';
import * as virtualLifeSupport from './virtual-life-support.js';
import type { Operation } from './operation.js';

/** Each booking family's public booking page, the target of `GET /client/booking-url`. */
const BOOKING_PAGES: Partial<Record<FamilyId, Operation>> = {
  'clinical-interview': clinicalInterview.showBookingPage,
  'practical-training': practicalTrainingPublic.showBookingPage,
  'virtual-life-support': virtualLifeSupport.showBookingPage,
};

/** The family's booking page; a family without one yet answers 404 (not a 500). */
export function bookingPageOf(family: FamilyId): Operation {
  const page = BOOKING_PAGES[family];
  if (!page) throw new DomainError('not-found', `The ${family} family has no booking page`);
  return page;
}
