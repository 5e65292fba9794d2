import type { GroupDeclaration } from '../../requests/group.js';
import { STANDARD_LABELS } from '../../requests/group.js';
import { DEFAULT_RETENTION, itemType } from './common.js';
import { isCalendarDate, readableDate } from '../../platform/time.js';

/**
 * Training verification: each certificate's issuer is e-mailed a form on
 * which they confirm it, or deny it with a reason. No review: the issuer's
 * answer is final; a denial makes the request `not_satisfied`.
 */

export const ISSUER_FORM = itemType(
  'Certificate to verify',
  [
    { name: 'issuer_name', label: 'Your name', type: 'text', max: 100 },
    { name: 'issuer_position', label: 'Your position', type: 'text', max: 100 },
  ],
  false,
);

export interface CertificateToVerify {
  subject?: string;
  course_title: string;
  completed_on: string;
  certificate_number?: string;
  issuer_organisation: string;
  issuer_contact_name: string;
  issuer_contact_email: string;
}

export const trainingVerification: GroupDeclaration<'training_verification'> = {
  kind: 'training_verification',
  title: 'Training verification request',
  labels: { ...STANDARD_LABELS, pending: 'Awaiting issuers' },
  itemType: () => ISSUER_FORM,
  plan: (details) =>
    (details.certificates as CertificateToVerify[]).map(({ issuer_contact_name, issuer_contact_email, ...certificate }) => ({
      type: 'certificate',
      actor: { mode: 'issuer_form', name: issuer_contact_name, email: issuer_contact_email },
      data: { ...certificate },
    })),
  reviewed: false,
  // Dates are at most today (section 1.2), in the service time zone: a course is verified once it was completed.
  refuseCreate: (details, today) => {
    const i = ((details.certificates ?? []) as CertificateToVerify[]).findIndex((c) => typeof c.completed_on === 'string' && c.completed_on > today);
    return i < 0 ? undefined : { pointer: `/certificates/${i}/completed_on`, detail: 'This date cannot be in the future' };
  },
  retention: DEFAULT_RETENTION,
  pdfLines: (item) => {
    const d = item.data ?? {};
    return [
      `${String(d.course_title)} (completed ${typeof d.completed_on === 'string' && isCalendarDate(d.completed_on) ? readableDate(d.completed_on) : String(d.completed_on)})`,
      `Issuer: ${String(d.issuer_organisation)}, ${item.actor.name} <${item.actor.email}>`,
      ...(typeof d.certificate_number === 'string' && d.certificate_number ? [`Certificate number: ${d.certificate_number}`] : []),
      ...(typeof d.issuer_name === 'string' && d.issuer_name ? [`Answered by ${d.issuer_name}, ${String(d.issuer_position)}`] : []),
      ...(typeof d.reason === 'string' && d.reason ? [`Reason: ${d.reason}`] : []),
    ];
  },
};
