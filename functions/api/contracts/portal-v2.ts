import type * as portalV2 from '../routes/portal-v2.js';
import { html, json, pdf, type OperationContract, type ResponseContract } from './contract.js';
import { BOOKING_GROUP_REQUEST, COMPLETED_REFERENCE, GROUP_REQUEST, REFERENCE, REFERENCE_REQUEST } from './portal-v2-examples.js';
import * as R from './responses.js';

const closed = (detail: string): ResponseContract =>
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

const groupId = { group: 'training-requests', id: GROUP_REQUEST.id };
const groupItem = { ...groupId, item_id: GROUP_REQUEST.items[0]!.id };
const groupClosed = closed('Training request 42 is cancelled');
const formPages = (what: string) => ({ 200: html(what, pageHtml), 410: html('The request was cancelled or has expired', pageHtml) });
const pageHtml = '<!doctype html><html lang="en-GB"><head><title>Training for Kate Marsden</title>…</html>';
const posted = {
  200: html('Received; the page again', pageHtml),
  409: html('Already answered', pageHtml),
  410: html('Cancelled or expired', pageHtml),
  422: html('The page again, with errors', pageHtml),
};
const GROUPS_TEXT =
  'The group is the path segment: `training-requests`, `occupational-health-requests` (an account entitlement: 403 without), `practical-training-requests`, `life-support-requests`, `appraisal-requests`, `certificate-requests`, `training-verification-requests`.';
const bookingItem = { group: 'practical-training-requests', id: BOOKING_GROUP_REQUEST.id, item_id: BOOKING_GROUP_REQUEST.items[0]!.id };
const reissued = {
  ...BOOKING_GROUP_REQUEST,
  status: 'pending',
  status_label: 'Awaiting candidate',
  items: [
    {
      ...BOOKING_GROUP_REQUEST.items[0]!,
      status: 'sent',
      status_label: 'Sent',
      data: null,
      booking_invite_id: 32,
      booking_id: null,
      updated_at: '2026-11-21T10:00:00.000Z',
    },
  ],
};

export const PORTAL_V2_CONTRACTS: Record<keyof typeof portalV2, OperationContract> = {
  listCandidates: {
    summary: 'List candidates',
    description: "This client's candidates, newest first.",
    tag: 'Candidates',
    request: { query: { limit: 25 }, invalid: { limit: '500' } },
    responses: { 200: json('Candidates, newest first', R.Candidate, 'page') },
  },
  createCandidate: {
    summary: 'Create a candidate',
    description: 'Adds a candidate to request references for.',
    tag: 'Candidates',
    request: {
      body: { first_name: 'Kate', last_name: 'Marsden', email: 'kate.marsden@example.org', phone: '+447700900456' },
      invalid: { phone: '7700 900456' },
    },
    responses: { 201: json('The candidate', R.Candidate, 'single', { message: 'Candidate created' }) },
  },
  getCandidate: {
    summary: 'Get a candidate',
    description: 'One candidate.',
    tag: 'Candidates',
    request: { params: { id: 87 } },
    responses: { 200: json('The candidate', R.Candidate, 'single', { message: 'Candidate' }) },
  },
  listTemplates: {
    summary: 'List form templates',
    description:
      "The reference forms referees can be asked to fill in; use an `id` as `template_id`. With `kind` (a request group such as `training`), that group's templates: presets of its create fields.",
    tag: 'Reference requests',
    request: { query: { kind: 'training' }, invalid: { kind: 'haircut' } },
    responses: { 200: json('Templates of the kind (default: reference form templates)', R.AnyTemplate, 'page') },
  },
  listReferenceRequests: {
    summary: 'List reference requests',
    description: "This client's reference requests, newest first, optionally by status or candidate.",
    tag: 'Reference requests',
    request: { query: { status: 'pending', candidate_id: 87, limit: 25 }, invalid: { candidate_id: 'kate' } },
    responses: { 200: json('Reference requests, newest first', R.ReferenceRequest, 'page') },
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
      201: json('The reference request', R.ReferenceRequest, 'single', { message: 'Reference request created' }),
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
    responses: { 200: json('The reference request', R.ReferenceRequest, 'single', { message: 'Reference request' }) },
  },
  cancelReferenceRequest: {
    summary: 'Cancel a reference request',
    description: 'Stops the request: its open forms stop accepting answers. References already completed are kept.',
    tag: 'Reference requests',
    request: { params: id },
    responses: {
      200: json('The reference request', R.ReferenceRequest, 'single', {
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
      201: json('The reference request, with the new reference', R.ReferenceRequest, 'single', {
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
      200: json('The reference request, with what happened for each referee', R.RemindedReferenceRequest, 'single', {
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
    responses: { 200: json('The reference, with the answers', R.ReferenceDetail, 'single', { message: 'Reference' }) },
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
  listGroupRequests: {
    summary: 'List requests of a group',
    description: `This client's requests of the group, newest first, optionally by status or candidate. Occupational health lists show outcomes and dates only (no item data or files). ${GROUPS_TEXT}`,
    tag: 'Request groups',
    request: { params: { group: 'training-requests' }, query: { status: 'awaiting_review', candidate_id: 87, limit: 25 }, invalid: { status: 'lost' } },
    responses: { 200: json('Requests, newest first', R.GroupRequest, 'page') },
  },
  createGroupRequest: {
    summary: 'Create a request of a group',
    description: `Asks the candidate (and third parties: issuers, appraisers, an OH provider) for evidence; each is e-mailed a link to a page that works without JavaScript. The body is the common fields (\`candidate_id\`, \`template_id\`, \`expiry_days\`, \`notes\`) and the group's own: training \`subjects\` (CSTF codes); occupational health \`collection_mode\`, \`oh_provider\`, \`epp_role\`; appraisal \`confirm_with_appraiser\`; certificate \`certificates[{kind, label}]\`; training verification \`certificates[{course_title, completed_on, issuer_organisation, issuer_contact_name, issuer_contact_email, …}]\`; practical training \`course_id\`, \`location_id\` or \`training_event_id\`, \`pay_option\`, \`agency_contact_name\`, \`agency_contact_email\`: a real booking invite of the practical training family, e-mailed by that family (the only e-mail; no \`submission_url\`), expiring with the request and charged only when used (\`invoice\` without invoicing: 422 \`invoice-disabled\`); life support \`course_id\` (a virtual life-support course), \`pay_option\`, \`agency_contact_*\`: the same, with an invite internal to that family whose page lists the course's timeslots and asks for the delivery address when the course posts a manikin. Its item follows the invite and the booking: \`sent\`, \`opened\`, \`booked\`, then \`certified\` (with the certificate, completing the request) or \`failed\`; a request whose items are all booked does not expire. ${GROUPS_TEXT}`,
    tag: 'Request groups',
    request: {
      params: { group: 'training-requests' },
      body: { candidate_id: 87, subjects: ['fire_safety', 'moving_handling'], expiry_days: 14, notes: GROUP_REQUEST.notes },
      invalid: { candidate_id: 'kate' },
    },
    responses: {
      201: json('The request', R.GroupRequest, 'single', {
        message: 'Training request created',
        example: {
          ...GROUP_REQUEST,
          status: 'pending',
          status_label: 'Awaiting candidate',
          items: [{ ...GROUP_REQUEST.items[0], status: 'requested', status_label: 'Requested', data: null, file: null, submitted_at: null, valid_until: null }],
        },
      }),
      403: json('The account does not include the group', R.Problem, undefined, {
        example: { code: 'forbidden', detail: 'This account does not include occupational health requests' },
      }),
      422: json('Invalid fields; or (a booking kind) `invoice` on an account without invoicing', R.Problem, undefined, {
        example: { code: 'invoice-disabled', detail: 'Invoice payments are not enabled on this account' },
      }),
    },
  },
  getGroupRequest: {
    summary: 'Get a request of a group',
    description: `One request with its items: each item's status, actor, data, file (name, type, size, SHA-256) and review. ${GROUPS_TEXT}`,
    tag: 'Request groups',
    request: { params: groupId },
    responses: { 200: json('The request', R.GroupRequest, 'single', { message: 'Training request' }) },
  },
  cancelGroupRequest: {
    summary: 'Cancel a request of a group',
    description:
      "Closes the request: outstanding items are cancelled and their links stop working (a booking kind's unused invite too, and a seat it holds is given back). Items already final, and bookings made, are kept.",
    tag: 'Request groups',
    request: { params: groupId },
    responses: {
      200: json('The request', R.GroupRequest, 'single', {
        message: 'Training request cancelled',
        example: { ...GROUP_REQUEST, status: 'cancelled', status_label: 'Cancelled' },
      }),
      409: groupClosed,
    },
  },
  remindGroupRequest: {
    summary: 'Remind whoever owes the next step',
    description:
      'E-mails the link again to each actor (the candidate, an issuer, an appraiser) who owes an item and was not reminded in the last 24 hours: one reminder per actor.',
    tag: 'Request groups',
    request: { params: groupId },
    responses: { 200: json('The request', R.GroupRequest, 'single', { message: '1 reminder sent' }), 409: groupClosed },
  },
  acceptGroupItem: {
    summary: 'Accept a submitted item',
    description:
      'The agency accepts an item its actor submitted; the acceptance that makes every item final completes the request (`outcome` set) in the same change. 409 unless the item is `submitted`.',
    tag: 'Request groups',
    request: { params: groupItem },
    responses: {
      200: json('The request', R.GroupRequest, 'single', { message: 'Item 71 accepted' }),
      409: json('The item is not submitted, or the request is closed', R.Problem, undefined, {
        example: { code: 'invalid-state', detail: 'Item 71 is accepted, not submitted' },
      }),
    },
  },
  rejectGroupItem: {
    summary: 'Reject a submitted item',
    description:
      'The agency rejects an item with a reason (1 to 500 characters); its actor is e-mailed the reason (occupational health: only that there is one) and the same link, and may submit again.',
    tag: 'Request groups',
    request: { params: groupItem, body: { reason: 'The certificate is not legible: please upload a clearer scan' }, invalid: { reason: '' } },
    responses: {
      200: json('The request', R.GroupRequest, 'single', { message: 'Item 71 rejected' }),
      409: json('The item is not submitted, or the request is closed', R.Problem, undefined, {
        example: { code: 'invalid-state', detail: 'Item 71 is requested, not submitted' },
      }),
    },
  },
  reissueGroupItem: {
    summary: "Reissue a failed item's booking invite",
    description:
      'For a booking kind (`practical-training-requests`, `life-support-requests`): an item whose booking failed (cancelled, no-show, not passed) gets a new booking invite, e-mailed to the candidate by the course family, and is `sent` again with the new `booking_invite_id`. 409 unless the item is `failed`; concurrent reissues make one invite.',
    tag: 'Request groups',
    request: { params: bookingItem },
    responses: {
      200: json('The request', R.GroupRequest, 'single', { message: 'Item 23 reissued', example: reissued }),
      409: json('The item has not failed, or the request is closed', R.Problem, undefined, {
        example: { code: 'invalid-state', detail: "Item 23 is booked: only a failed booking's invite is reissued" },
      }),
    },
  },
  downloadGroupItemFile: {
    summary: "Download an item's file",
    description: 'A 303 redirect to a signed link to the file, valid for 300 seconds, served as an attachment. 404 while the item has no file.',
    tag: 'Request groups',
    request: { params: groupItem },
    responses: { 303: { description: 'See the signed link in `Location`' } },
  },
  downloadGroupRequestPdf: {
    summary: 'Download a request summary as PDF',
    description: "The request's items, statuses, dates, reviewers and each file's SHA-256 (never the files' contents).",
    tag: 'Request groups',
    request: { params: groupId },
    responses: { 200: pdf('The summary') },
  },
  showRequestSubmission: {
    summary: "Candidate's request page (HTML)",
    description:
      "The page the candidate reaches from their e-mail: each item's fields, then its file (posted straight to the document store under a signed form).",
    tag: 'Public pages',
    responses: formPages('The page'),
  },
  submitRequestSubmission: {
    summary: "Candidate's request page: an item's fields (HTML form)",
    description: "One item's fields; the page then offers its file upload.",
    tag: 'Public pages',
    responses: posted,
  },
  requestSubmissionUploaded: {
    summary: 'Candidate page: back from the upload (HTML)',
    description:
      'Where the document store sends the browser after an upload: the file is checked (size 1 B to 10 MiB; PDF, JPEG or PNG by its leading bytes), attached and the item submitted; otherwise it is deleted and the page says why (422).',
    tag: 'Public pages',
    responses: { 200: html('Attached', pageHtml), 410: html('Cancelled or expired', pageHtml), 422: html('Not attached, and why', pageHtml) },
  },
  showRequestForm: {
    summary: 'Third-party form (HTML)',
    description: 'The form an issuer, an appraiser or an OH provider reaches from their e-mail: confirm or deny, or give the items with their files.',
    tag: 'Public pages',
    responses: formPages('The form'),
  },
  submitRequestForm: {
    summary: 'Third-party form: answer (HTML form)',
    description: "Confirms, or denies with a reason; or (an OH provider) one item's fields.",
    tag: 'Public pages',
    responses: posted,
  },
  requestFormUploaded: {
    summary: 'Third-party form: back from the upload (HTML)',
    description: "As the candidate's page: the file is checked, attached and the item submitted, or deleted and refused.",
    tag: 'Public pages',
    responses: { 200: html('Attached', pageHtml), 410: html('Cancelled or expired', pageHtml), 422: html('Not attached, and why', pageHtml) },
  },
};
