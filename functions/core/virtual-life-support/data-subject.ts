import { bookingSubjectAdapter, bookingSubjectFinder } from '../bookings/data-subject.js';

/** A virtual life-support booking's candidate, the address their manikin was posted to, and the invites they were sent. */
export const virtualLifeSupportSubjectFinder = /* @__PURE__ */ bookingSubjectFinder('virtual-life-support', { invites: true });
export const virtualLifeSupportSubjects = /* @__PURE__ */ bookingSubjectAdapter(virtualLifeSupportSubjectFinder, { ownFields: { delivery_address: null } });
