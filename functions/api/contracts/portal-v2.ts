import type * as portalV2 from '../routes/portal-v2.js';
import { html, json, pdf, type OperationContract, type ResponseContract } from './contract.js';
import { COMPLETED_REFERENCE, REFERENCE, REFERENCE_REQUEST } from './portal-v2-examples.js';
import * as P from './portal-v2-responses.js';
import * as R from './responses.js';

/** A request, or a group's, that is cancelled or expired: 409 with the state it is in. */
export const closed = (detail: string): ResponseContract =>
  json('The request is cancelled or expired', R.Problem, undefined, { example: { code: 'invalid-state', detail } });
const { referee_name, referee_email, referee_organisation, referee_position, referee_phone, relationship_to_candidate } = REFERENCE;
const referee = { referee_name, referee_email, referee_organisation, referee_position, referee_phone, relationship_to_candidate };
const secondReferee = {
  ...REFERENCE,
  id: 513,
  uuid: '8858a07e-0762-4f76-bee7-70048db0993e',
  referee_name: 'Tom Okoro',
  referee_email: 'tom.okoro@carehomes.example',
  referee_organisation: 'Elmwood Care Homes',
  referee_position: 'Deputy Manager',
  referee_phone: null,
  relationship_to_candidate: null,
};
const formHtml = '<!doctype html><html lang="en"><head><title>Reference for Kate Marsden</title>…</html>';
const id = { id: REFERENCE_REQUEST.id };

/** Portal v2's candidates, templates, reference requests and their pages; the request groups' are in ./portal-v2-request-groups.ts. */
export const PORTAL_V2_CONTRACTS: Record<keyof typeof portalV2, OperationContract> = {
  listCandidates: {
    summary: 'List candidates',
    description: "This client's candidates, newest first.",
    tag: 'Candidates',
    request: { query: { limit: 25 }, invalid: { limit: '500' } },
    responses: { 200: json('Candidates, newest first', P.Candidate, 'page') },
  },
  createCandidate: {
    summary: 'Create a candidate',
    description: 'Adds a candidate to request references for.',
    tag: 'Candidates',
    request: {
      body: { first_name: 'Kate', last_name: 'Marsden', email: 'kate.marsden@example.org', phone: '+447700900456' },
      invalid: { phone: '7700 900456' },
    },
    responses: { 201: json('The candidate', P.Candidate, 'single', { message: 'Candidate created' }) },
  },
  getCandidate: {
    summary: 'Get a candidate',
    description: 'One candidate.',
    tag: 'Candidates',
    request: { params: { id: 87 } },
    responses: { 200: json('The candidate', P.Candidate, 'single', { message: 'Candidate' }) },
  },
  listTemplates: {
    summary: 'List form templates',
    description:
      "The reference forms referees can be asked to fill in; use an `id` as `template_id`. With `kind` (a request group such as `training`), that group's templates: presets of its create fields.",
    tag: 'Reference requests',
    request: { query: { kind: 'training' }, invalid: { kind: 'haircut' } },
    responses: { 200: json('Templates of the kind (default: reference form templates)', P.AnyTemplate, 'page') },
  },
  listReferenceRequests: {
    summary: 'List reference requests',
    description: "This client's reference requests, newest first, optionally by status or candidate.",
    tag: 'Reference requests',
    request: { query: { status: 'pending', candidate_id: 87, limit: 25 }, invalid: { candidate_id: 'kate' } },
    responses: { 200: json('Reference requests, newest first', P.ReferenceRequest, 'page') },
  },
  createReferenceRequest: {
    summary: 'Create a reference request',
    description:
      'Asks for `references_required` references for a candidate. With `client_adds` the referees given are e-mailed a form at once (more can be added later); with `candidate_provides` the candidate is e-mailed a page to name them. The request expires after `expiry_days`.',
    tag: 'Reference requests',
    request: {
      body: {
        candidate_id: 87,
        collection_mode: 'client_adds',
        references_required: 2,
        template_id: 1,
        expiry_days: 14,
        notes: REFERENCE_REQUEST.notes,
        referees: [referee],
      },
      invalid: { referees: [{ ...referee, referee_email: 'jane.smith@nhs' }] },
    },
    responses: {
      201: json('The reference request', P.ReferenceRequest, 'single', { message: 'Reference request created' }),
      403: json('The account does not include reference requests', R.Problem, undefined, {
        example: { code: 'forbidden', detail: 'This account does not include reference requests' },
      }),
    },
  },
  getReferenceRequest: {
    summary: 'Get a reference request',
    description: 'One reference request with each of its references.',
    tag: 'Reference requests',
    request: { params: id },
    responses: { 200: json('The reference request', P.ReferenceRequest, 'single', { message: 'Reference request' }) },
  },
  cancelReferenceRequest: {
    summary: 'Cancel a reference request',
    description: 'Stops the request: its open forms stop accepting answers. References already completed are kept.',
    tag: 'Reference requests',
    request: { params: id },
    responses: {
      200: json('The reference request', P.ReferenceRequest, 'single', {
        message: 'Reference request cancelled',
        example: { ...REFERENCE_REQUEST, status: 'cancelled', status_label: 'Cancelled', updated_at: '2026-11-21T16:20:00.000Z' },
      }),
      409: closed('Reference request 311 is cancelled'),
    },
  },
  addReferee: {
    summary: 'Add a referee to a request',
    description: 'Adds one referee to an open request and e-mails them the reference form.',
    tag: 'Reference requests',
    request: {
      params: id,
      body: {
        referee_name: 'Tom Okoro',
        referee_email: 'tom.okoro@carehomes.example',
        referee_organisation: 'Elmwood Care Homes',
        referee_position: 'Deputy Manager',
      },
      invalid: { referee_name: '' },
    },
    responses: {
      201: json('The reference request, with the new reference', P.ReferenceRequest, 'single', {
        message: 'Referee added and e-mailed',
        example: { ...REFERENCE_REQUEST, references: [REFERENCE, secondReferee] },
      }),
      409: json('The request is closed or full', R.Problem, undefined, { example: { code: 'invalid-state', detail: 'A request has at most 10 referees' } }),
    },
  },
  sendReminders: {
    summary: 'Remind referees who have not answered',
    description:
      "E-mails the form again to each referee who has not answered and was not reminded in the last 24 hours. `reminders` says, for each referee, whether they were reminded now and, if not, why (`reminded_recently`, or the reference's status: `completed`, `declined`, `cancelled`, `expired`) and when they can next be reminded (`next_reminder_at`; null when never: they are no longer waiting, or the request expires first).",
    tag: 'Reference requests',
    request: { params: id },
    responses: {
      200: json('The reference request, with what happened for each referee', P.RemindedReferenceRequest, 'single', {
        message: '1 reminder sent',
        example: {
          ...REFERENCE_REQUEST,
          references_completed: 1,
          references: [
            { ...REFERENCE, reminder_count: 1, last_reminder_sent_at: '2026-11-21T09:00:00.000Z', updated_at: '2026-11-21T09:00:00.000Z' },
            { ...secondReferee, status: 'completed', status_label: 'Completed' },
          ],
          reminders: [
            { reference_id: REFERENCE.id, referee_name: REFERENCE.referee_name, reminded: true, reason: null, next_reminder_at: '2026-11-22T09:00:00.000Z' },
            { reference_id: secondReferee.id, referee_name: secondReferee.referee_name, reminded: false, reason: 'completed', next_reminder_at: null },
          ],
        },
      }),
      409: closed('Reference request 311 is expired'),
    },
  },
  getReference: {
    summary: 'Get reference detail',
    description: "One reference with the referee's answers (ratings as numbers, text as strings) once it is completed.",
    tag: 'References',
    request: { params: { id: COMPLETED_REFERENCE.id } },
    responses: { 200: json('The reference, with the answers', P.ReferenceDetail, 'single', { message: 'Reference' }) },
  },
  downloadReferencePdf: {
    summary: 'Download a completed reference as PDF',
    description: 'The completed reference as a PDF to file or share; 404 until it is completed.',
    tag: 'References',
    request: { params: { id: COMPLETED_REFERENCE.id } },
    responses: { 200: pdf('The completed reference') },
  },
  showReferenceForm: {
    summary: 'Referee form (HTML)',
    description: 'The page a referee reaches from their e-mail: the questions of the template, to answer or decline.',
    tag: 'Public pages',
    responses: { 200: html('The page', formHtml), 410: html('The request was cancelled or has expired', formHtml) },
  },
  submitReferenceForm: {
    summary: 'Referee form: submit or decline (HTML form)',
    description: "The referee's answers, or their reason to decline.",
    tag: 'Public pages',
    responses: {
      200: html('Received', formHtml),
      409: html('Already answered', formHtml),
      410: html('Cancelled or expired', formHtml),
      422: html('The form again, with errors', formHtml),
    },
  },
  showRefereeSubmission: {
    summary: 'Candidate page to name referees (HTML)',
    description: 'For `candidate_provides` requests: the page the candidate reaches from their e-mail to name their referees.',
    tag: 'Public pages',
    responses: { 200: html('The page', formHtml), 410: html('The request was cancelled or has expired', formHtml) },
  },
  submitReferees: {
    summary: 'Candidate page: send referees (HTML form)',
    description: "The candidate's referees; each is e-mailed the reference form.",
    tag: 'Public pages',
    responses: {
      200: html('Received', formHtml),
      409: html('Already answered', formHtml),
      410: html('Cancelled or expired', formHtml),
      422: html('The form again, with errors', formHtml),
    },
  },
};
