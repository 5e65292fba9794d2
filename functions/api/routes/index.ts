import { FAMILIES, FAMILY_IDS, type FamilyId } from '../../core/platform/families.js';
import { actingUserOf } from './acting-user.js';
import * as clinicalInterview from './clinical-interview.js';
import { pathPattern, type HttpMethod, type Operation } from './operation.js';
import * as portalV1 from './portal-v1.js';
import * as portalV2 from './portal-v2.js';
import * as portalV2RequestGroups from './portal-v2-request-groups.js';
import * as practicalTraining from './practical-training.js';
import * as practicalTrainingLegacy from './practical-training-legacy.js';
import * as practicalTrainingPublic from './practical-training-public.js';
import * as services from './services.js';
import * as registrationMonitoring from './registration-monitoring.js';
import * as registrationMonitoringAccount from './registration-monitoring-account.js';
import { clientOperations, docsOperations, tokenOperations, webhookOperations } from './shared.js';
import { paymentOperations } from './payments.js';
import { dataSubjectOperations } from './data-subjects.js';
import { isDataSubjectFamily } from '../../core/data-rights/families.js';
import * as virtualLifeSupport from './virtual-life-support.js';

export { linkTo, pathOf, type HttpMethod, type Operation } from './operation.js';

/**
 * The route table: every HTTP operation of every family, once. The CDK stacks
 * build one Lambda per route and the local server dispatches from it; the
 * OpenAPI documents are generated from it; nothing else lists routes.
 */

export interface Route extends Operation {
  family: FamilyId;
}

/** Each family's own operations; the shared ones are added by capability below. */
const OWN_OPERATIONS: Record<FamilyId, Record<string, Operation>> = {
  'clinical-interview': clinicalInterview,
  'portal-v2': { ...portalV2, ...portalV2RequestGroups },
  'practical-training': { ...practicalTraining, ...practicalTrainingPublic },
  'virtual-life-support': virtualLifeSupport,
  services,
  'practical-training-legacy': practicalTrainingLegacy,
  'registration-monitoring': { ...registrationMonitoring, ...registrationMonitoringAccount },
  'portal-v1': portalV1,
};

// A route module exports its operations only, each under its own id and tagged with its family (a shared one with none).
function checkExports(operations: Record<string, Operation>, family?: FamilyId): void {
  for (const [name, o] of Object.entries(operations)) {
    if (o.operationId !== name || o.family !== family) throw new Error(`Route export ${name} is the operation ${o.family} ${o.operationId}`);
  }
}
for (const [family, operations] of Object.entries(OWN_OPERATIONS)) checkExports(operations, family as FamilyId);
for (const group of [tokenOperations, webhookOperations, clientOperations, docsOperations, paymentOperations, dataSubjectOperations]) checkExports(group);

const METHOD_ORDER: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
/**
 * A family's own operations in the order the documents list them: by path,
 * so a resource's operations sit together, then by method. (A module's
 * exports come in name order, not the order they were written in.)
 */
const byPathThenMethod = (a: Operation, b: Operation): number =>
  a.path === b.path ? METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method) : a.path < b.path ? -1 : 1;

function familyRoutes(family: FamilyId): Route[] {
  const operations: Operation[] = [
    ...Object.values(docsOperations),
    // The facades take their parent's tokens and have no token operations (decision 3).
    ...(FAMILIES[family].tokens === 'own' ? Object.values(tokenOperations) : []),
    ...Object.values(OWN_OPERATIONS[family]).sort(byPathThenMethod),
    ...(FAMILIES[family].clientOperations ? Object.values(clientOperations) : []),
    ...(FAMILIES[family].webhooks ? Object.values(webhookOperations) : []),
    ...('candidatePayments' in FAMILIES[family] ? Object.values(paymentOperations) : []),
    ...(isDataSubjectFamily(family) ? Object.values(dataSubjectOperations) : []),
  ];
  // A shared operation takes Acting-User only in a family with team users: each route says what holds in its family.
  return operations.map((o) => {
    const { actingUser: _, specIn, ...rest } = o;
    const actingUser = actingUserOf(o, family);
    // A shared operation the specification names in some families only is `spec` there (x-contract in the documents).
    const contract = specIn?.includes(family) ? 'spec' : o.contract;
    return { ...rest, family, contract, ...(actingUser === undefined ? {} : { actingUser }) };
  });
}

export const ROUTES: readonly Route[] = FAMILY_IDS.flatMap(familyRoutes);

export const routesOf = (family: FamilyId): Route[] => ROUTES.filter((r) => r.family === family);

/** API Gateway's route key, e.g. `GET /bookings/{id}`. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

const PATTERNS = new Map(ROUTES.map((r) => [r, pathPattern(r.path).pattern]));

/**
 * The methods the family has at a path (the request's, without the family
 * prefix), in the documents' order: a request with another method is 405
 * with these in `Allow`; none is 404.
 */
export const allowedMethods = (family: FamilyId, path: string): HttpMethod[] =>
  METHOD_ORDER.filter((method) => ROUTES.some((r) => r.family === family && r.method === method && PATTERNS.get(r)!.test(path)));
