import type { portalV2 } from '../routes/portal-v2.js';
import { html, json, pdf, type OperationContract } from './contract.js';
import * as R from './responses.js';

const closed = json('The request is cancelled or expired', R.Problem);

export const PORTAL_V2_CONTRACTS: Record<keyof typeof portalV2, OperationContract> = {
  listCandidates: { summary: 'List candidates', responses: { 200: json('Candidates, newest first', R.Candidate, 'page') } },
  createCandidate: { summary: 'Create a candidate', responses: { 201: json('The candidate', R.Candidate, 'single') } },
  getCandidate: { summary: 'Get a candidate', responses: { 200: json('The candidate', R.Candidate, 'single') } },
  listTemplates: { summary: 'List form templates', responses: { 200: json('Reference form templates', R.Template, 'page') } },
  listReferenceRequests: { summary: 'List reference requests', responses: { 200: json('Reference requests, newest first', R.ReferenceRequest, 'page') } },
  createReferenceRequest: {
    summary: 'Create a reference request',
    responses: { 201: json('The reference request', R.ReferenceRequest, 'single'), 403: json('The account does not include reference requests', R.Problem) },
  },
  getReferenceRequest: { summary: 'Get a reference request', responses: { 200: json('The reference request', R.ReferenceRequest, 'single') } },
  cancelReferenceRequest: { summary: 'Cancel a reference request', responses: { 200: json('The reference request', R.ReferenceRequest, 'single'), 409: closed } },
  addReferee: {
    summary: 'Add a referee to a request',
    responses: { 201: json('The reference request, with the new reference', R.ReferenceRequest, 'single'), 409: json('The request is closed or full', R.Problem) },
  },
  sendReminders: { summary: 'Remind referees who have not answered', responses: { 200: json('The reference request', R.ReferenceRequest, 'single'), 409: closed } },
  getReference: { summary: 'Get reference detail', responses: { 200: json('The reference, with the answers', R.ReferenceDetail, 'single') } },
  downloadReferencePdf: { summary: 'Download a completed reference as PDF', responses: { 200: pdf('The completed reference') } },
  showReferenceForm: { summary: 'Referee form (HTML)', responses: { 200: html('The page'), 410: html('The request was cancelled or has expired') } },
  submitReferenceForm: {
    summary: 'Referee form: submit or decline (HTML form)',
    responses: { 200: html('Received'), 409: html('Already answered'), 410: html('Cancelled or expired'), 422: html('The form again, with errors') },
  },
  showRefereeSubmission: { summary: 'Candidate page to name referees (HTML)', responses: { 200: html('The page'), 410: html('The request was cancelled or has expired') } },
  submitReferees: {
    summary: 'Candidate page: send referees (HTML form)',
    responses: { 200: html('Received'), 409: html('Already answered'), 410: html('Cancelled or expired'), 422: html('The form again, with errors') },
  },
};
