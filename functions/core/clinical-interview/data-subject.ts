import { pathOf } from '../../api/routes/operation.js';
import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { bookingSubjectAdapter, bookingSubjectFinder } from '../bookings/data-subject.js';
import { isKeyOf } from '../documents/kinds.js';

/** A clinical interview's candidate, and the interview report about them (deleted by an erasure). */
export const clinicalInterviewSubjectFinder = /* @__PURE__ */ bookingSubjectFinder('clinical-interview');
export const clinicalInterviewSubjects = /* @__PURE__ */ bookingSubjectAdapter(clinicalInterviewSubjectFinder, {
  files: {
    of: (b) =>
      typeof b.report_key === 'string' && isKeyOf('interview-reports', b.report_key)
        ? [
            {
              key: b.report_key,
              what: `Interview report of booking ${String(b.id)}`,
              download: pathOf(clinicalInterview.downloadInterviewReport, { id: Number(b.id) }),
            },
          ]
        : [],
    erased: { report_key: null, interview_report_available: false },
  },
});
