import { bookingSubjectAdapter } from '../bookings/data-subject.js';

/** A trainee of a practical training booking, and the candidate an invite went to. */
export const practicalTrainingSubjects = bookingSubjectAdapter('practical-training', { invites: true });
