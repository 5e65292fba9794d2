import { bookingSubjectAdapter, bookingSubjectFinder } from '../bookings/data-subject.js';

/** A trainee of a practical training booking, and the candidate an invite went to. */
export const practicalTrainingSubjectFinder = /* @__PURE__ */ bookingSubjectFinder('practical-training', { invites: true });
export const practicalTrainingSubjects = /* @__PURE__ */ bookingSubjectAdapter(practicalTrainingSubjectFinder);
