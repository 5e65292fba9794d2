import type * as portalV1 from '../routes/portal-v1.js';
import { json, none, type OperationContract } from './contract.js';
import { GROUP_REQUEST } from './portal-v2-examples.js';
import * as P from './portal-v2-responses.js';
import * as R from './responses.js';

/** The deprecated portal API version 1: portal v2's objects, over portal v2 tokens. */
const DEPRECATED =
  ' Deprecated: takes a portal v2 token; every answer carries `Deprecation`, `Sunset` and `Link` headers; during announced brownouts and after the sunset the API answers 410 `/problems/api-sunset`.';

const group = (title: string, segment: string, kind: string, body: Record<string, unknown>, invalid: Record<string, unknown>) => {
  const example = { ...GROUP_REQUEST, kind, items: GROUP_REQUEST.items.map((i) => ({ ...i, kind })) };
  return {
    list: {
      summary: `List ${title}s`,
      description: `This client's ${title}s, newest first, as portal v2's \`GET /${segment}\` answers them.${DEPRECATED}`,
      tag: 'Request groups',
      request: { query: { limit: 25 }, invalid: { limit: '0' } },
      responses: { 200: json(`${title}s, newest first`, P.GroupRequest, 'page', { example }) },
    },
    create: {
      summary: `Create a ${title}`,
      description: `As portal v2's \`POST /${segment}\` (the same body and answer).${DEPRECATED}`,
      tag: 'Request groups',
      request: { body, invalid },
      responses: { 201: json(`The ${title}`, P.GroupRequest, 'single', { message: `${title[0]!.toUpperCase()}${title.slice(1)} created`, example }) },
    },
    get: {
      summary: `Get a ${title}`,
      description: `As portal v2's \`GET /${segment}/{id}\`.${DEPRECATED}`,
      tag: 'Request groups',
      request: { params: { id: GROUP_REQUEST.id } },
      responses: { 200: json(`The ${title}`, P.GroupRequest, 'single', { message: `${title[0]!.toUpperCase()}${title.slice(1)}`, example }) },
    },
  } satisfies Record<string, OperationContract>;
};

const training = group('training request', 'training-requests', 'training', { candidate_id: 87, subjects: ['fire_safety'] }, { subjects: [] });
const oh = group(
  'occupational health request',
  'occupational-health-requests',
  'occupational_health',
  { candidate_id: 87, collection_mode: 'candidate_provides', epp_role: false },
  { collection_mode: 'by_post' },
);
const certificate = group(
  'certificate request',
  'certificate-requests',
  'certificate',
  { candidate_id: 87, certificates: [{ kind: 'dbs' }] },
  { certificates: [] },
);

export const PORTAL_V1_CONTRACTS: Record<keyof typeof portalV1, OperationContract> = {
  listCandidates: {
    summary: 'List candidates',
    description: `This client's candidates, newest first (portal v2's \`GET /candidates\`).${DEPRECATED}`,
    tag: 'Candidates',
    request: { query: { limit: 25 }, invalid: { limit: '500' } },
    responses: { 200: json('Candidates, newest first', P.Candidate, 'page') },
  },
  createCandidate: {
    summary: 'Create a candidate',
    description: `Portal v2's \`POST /candidates\`.${DEPRECATED}`,
    tag: 'Candidates',
    request: { body: { first_name: 'Kate', last_name: 'Marsden', email: 'kate.marsden@example.org' }, invalid: { email: 'kate' } },
    responses: { 201: json('The candidate', P.Candidate, 'single', { message: 'Candidate created' }) },
  },
  getCandidate: {
    summary: 'Get a candidate',
    description: `Portal v2's \`GET /candidates/{id}\`.${DEPRECATED}`,
    tag: 'Candidates',
    request: { params: { id: 87 } },
    responses: { 200: json('The candidate', P.Candidate, 'single', { message: 'Candidate' }) },
  },
  listTrainingRequests: training.list,
  createTrainingRequest: training.create,
  getTrainingRequest: training.get,
  listOccupationalHealthRequests: oh.list,
  createOccupationalHealthRequest: oh.create,
  getOccupationalHealthRequest: oh.get,
  listCertificateRequests: certificate.list,
  createCertificateRequest: certificate.create,
  getCertificateRequest: certificate.get,
  subscribeWebhook: {
    summary: 'Subscribe to events (webhook 1)',
    description: `Makes a portal v2 webhook endpoint limited to the training, occupational health and certificate requests' events and their items' events (default: all of them); the secret is shown only here. The endpoint is a portal v2 one: it keeps delivering after v1's sunset and can be managed with portal v2's webhook operations.${DEPRECATED}`,
    tag: 'Webhooks',
    request: {
      body: { url: 'https://hooks.northwind-care.example/portal', events: ['training_request.completed'], name: 'Compliance' },
      invalid: { events: ['booking.created'] },
    },
    responses: {
      201: json('The endpoint, with its secret', R.WebhookEndpointWithSecret, 'single', { message: 'Subscribed; store the secret now, it is not shown again' }),
    },
  },
  unsubscribeWebhook: {
    summary: 'Unsubscribe (webhook 2)',
    description: `Deletes an endpoint made by \`POST /webhooks\` of this API; any other endpoint is 404.${DEPRECATED}`,
    tag: 'Webhooks',
    request: { params: { id: 4 } },
    responses: { 204: none('Deleted') },
  },
};
