import { FAMILIES, FAMILY_IDS, type FamilyId } from '../../core/platform/families.js';
import { clinicalInterview } from './clinical-interview.js';
import type { HttpMethod, Operation } from './operation.js';
import { portalV1 } from './portal-v1.js';
import { portalV2 } from './portal-v2.js';
import { practicalTraining } from './practical-training.js';
import { practicalTrainingLegacy } from './practical-training-legacy.js';
import { practicalTrainingPublic } from './practical-training-public.js';
import { services } from './services.js';
import { registrationMonitoring } from './registration-monitoring.js';
import { clientOperations, docsOperations, tokenOperations, webhookOperations } from './shared.js';
import { virtualLifeSupport } from './virtual-life-support.js';

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
  'portal-v2': portalV2,
  'practical-training': { ...practicalTraining, ...practicalTrainingPublic },
  'virtual-life-support': virtualLifeSupport,
  services,
  'practical-training-legacy': practicalTrainingLegacy,
  'registration-monitoring': registrationMonitoring,
  'portal-v1': portalV1,
};

function familyRoutes(family: FamilyId): Route[] {
  const operations: Operation[] = [
    ...Object.values(docsOperations),
    // The facades take their parent's tokens and have no token operations (decision 3).
    ...(FAMILIES[family].tokens === 'own' ? Object.values(tokenOperations) : []),
    ...Object.values(OWN_OPERATIONS[family]),
    ...(FAMILIES[family].clientOperations ? Object.values(clientOperations) : []),
    ...(FAMILIES[family].webhooks ? Object.values(webhookOperations) : []),
  ];
  return operations.map((o) => ({ ...o, family }));
}

export const ROUTES: readonly Route[] = FAMILY_IDS.flatMap(familyRoutes);

export const routesOf = (family: FamilyId): Route[] => ROUTES.filter((r) => r.family === family);

/** API Gateway's route key, e.g. `GET /bookings/{id}`. */
export const routeKey = (route: Pick<Route, 'method' | 'path'>): string => `${route.method} ${route.path}`;

export const findRoute = (family: FamilyId, method: HttpMethod | string, path: string): Route | undefined =>
  ROUTES.find((r) => r.family === family && r.method === method && r.path === path);
