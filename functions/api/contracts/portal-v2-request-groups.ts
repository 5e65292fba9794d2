import type * as requestGroups from '../routes/portal-v2-request-groups.js';
import { html, json, pdf, type OperationContract } from './contract.js';
import { closed } from './portal-v2.js';
import { BOOKING_GROUP_REQUEST, GROUP_REQUEST } from './portal-v2-examples.js';
import * as P from './portal-v2-responses.js';
import * as R from './responses.js';

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

/** Portal v2's request groups: one set of operations for every kind, and their public pages. */
export const PORTAL_V2_REQUEST_GROUP_CONTRACTS: Record<keyof typeof requestGroups, OperationContract> = {
  listGroupRequests: {
    summary: 'List requests of a group',
    description: `This client's requests of the group, newest first, optionally by status or candidate. Occupational health lists show outcomes and dates only (no item data or files). ${GROUPS_TEXT}`,
    tag: 'Request groups',
    request: { params: { group: 'training-requests' }, query: { status: 'awaiting_review', candidate_id: 87, limit: 25 }, invalid: { status: 'lost' } },
    responses: { 200: json('Requests, newest first', P.GroupRequest, 'page') },
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
      201: json('The request', P.GroupRequest, 'single', {
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
    responses: { 200: json('The request', P.GroupRequest, 'single', { message: 'Training request' }) },
  },
  cancelGroupRequest: {
    summary: 'Cancel a request of a group',
    description:
      "Closes the request: outstanding items are cancelled and their links stop working (a booking kind's unused invite too, and a seat it holds is given back). Items already final, and bookings made, are kept.",
    tag: 'Request groups',
    request: { params: groupId },
    responses: {
      200: json('The request', P.GroupRequest, 'single', {
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
    responses: { 200: json('The request', P.GroupRequest, 'single', { message: '1 reminder sent' }), 409: groupClosed },
  },
  acceptGroupItem: {
    summary: 'Accept a submitted item',
    description:
      'The agency accepts an item its actor submitted; the acceptance that makes every item final completes the request (`outcome` set) in the same change. 409 unless the item is `submitted`.',
    tag: 'Request groups',
    request: { params: groupItem },
    responses: {
      200: json('The request', P.GroupRequest, 'single', { message: 'Item 71 accepted' }),
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
      200: json('The request', P.GroupRequest, 'single', { message: 'Item 71 rejected' }),
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
      200: json('The request', P.GroupRequest, 'single', { message: 'Item 23 reissued', example: reissued }),
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
