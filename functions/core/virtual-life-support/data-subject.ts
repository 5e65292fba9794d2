import { bookingSubjectAdapter } from '../bookings/data-subject.js';

/** A virtual life-support booking's candidate, the address their manikin was posted to, and the invites they were sent. */
export const virtualLifeSupportSubjects = bookingSubjectAdapter('virtual-life-support', { invites: true, ownFields: { delivery_address: null } });
