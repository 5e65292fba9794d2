import { randomUUID } from 'node:crypto';
import { linkTo } from '../../api/routes/operation.js';
import { virtualLifeSupport as pages } from '../../api/routes/virtual-life-support.js';
import { VLS_BOOKINGS } from '../../core/virtual-life-support/bookings.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { payForCourse } from '../shared/_course-payment.js';

/** The test provider reports success at once; the booking is confirmed and the agency told (booking.confirmed). */
export const handler = pageHandler(pages.submitPaymentPage, async ({ deps, params, baseUrl }) => {
  await payForCourse(deps, VLS_BOOKINGS, params.token, `test_${randomUUID()}`);
  return { redirect: linkTo(baseUrl, pages.showPaymentPage, params) };
});
