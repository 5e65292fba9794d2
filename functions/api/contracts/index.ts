import type * as v from 'valibot';
import type { FamilyId } from '../../core/platform/families.js';
import type { Route } from '../routes/index.js';
import { BookingRequest, HoldRequest } from '../schemas/clinical-interview.js';
import { RefereeInput, ReferenceRequestCreate } from '../schemas/portal-v2.js';
import { CLINICAL_INTERVIEW_CONTRACTS } from './clinical-interview.js';
import type { OperationContract } from './contract.js';
import { PORTAL_V1_CONTRACTS } from './portal-v1.js';
import { PORTAL_V2_CONTRACTS } from './portal-v2.js';
import { PORTAL_V2_REQUEST_GROUP_CONTRACTS } from './portal-v2-request-groups.js';
import { PRACTICAL_TRAINING_PUBLIC_CONTRACTS } from './practical-training-public.js';
import { PRACTICAL_TRAINING_CONTRACTS } from './practical-training.js';
import { PRACTICAL_TRAINING_LEGACY_CONTRACTS } from './practical-training-legacy.js';
import { SERVICES_CONTRACTS } from './services.js';
import { REGISTRATION_MONITORING_CONTRACTS } from './registration-monitoring.js';
import { REGISTRATION_MONITORING_ACCOUNT_CONTRACTS } from './registration-monitoring-account.js';
import * as P from './portal-v2-responses.js';
import * as R from './responses.js';
import { SHARED_CONTRACTS } from './shared.js';
import { PAYMENT_CONTRACTS } from './payments.js';
import { DATA_SUBJECT_CONTRACTS } from './data-subjects.js';
import { VIRTUAL_LIFE_SUPPORT_CONTRACTS } from './virtual-life-support.js';

export type { OperationContract, ResponseContract } from './contract.js';

/**
 * Each operation's contract entry: its family's own, else the shared one. A
 * route without an entry fails the guard-rail test.
 */
const FAMILY_CONTRACTS: Record<FamilyId, Record<string, OperationContract>> = {
  'clinical-interview': CLINICAL_INTERVIEW_CONTRACTS,
  'portal-v2': { ...PORTAL_V2_CONTRACTS, ...PORTAL_V2_REQUEST_GROUP_CONTRACTS },
  'practical-training': { ...PRACTICAL_TRAINING_CONTRACTS, ...PRACTICAL_TRAINING_PUBLIC_CONTRACTS },
  'virtual-life-support': VIRTUAL_LIFE_SUPPORT_CONTRACTS,
  services: SERVICES_CONTRACTS,
  'practical-training-legacy': PRACTICAL_TRAINING_LEGACY_CONTRACTS,
  'registration-monitoring': { ...REGISTRATION_MONITORING_CONTRACTS, ...REGISTRATION_MONITORING_ACCOUNT_CONTRACTS },
  'portal-v1': PORTAL_V1_CONTRACTS,
};

export const findContract = (route: Pick<Route, 'family' | 'operationId'>): OperationContract | undefined =>
  FAMILY_CONTRACTS[route.family][route.operationId] ??
  (SHARED_CONTRACTS as Record<string, OperationContract>)[route.operationId] ??
  (PAYMENT_CONTRACTS as Record<string, OperationContract>)[route.operationId] ??
  (DATA_SUBJECT_CONTRACTS as Record<string, OperationContract>)[route.operationId];

export function contractOf(route: Pick<Route, 'family' | 'operationId'>): OperationContract {
  const contract = findContract(route);
  if (!contract) throw new Error(`No contract for ${route.family} ${route.operationId}`);
  return contract;
}

/** Top-level fields the source specification states, per schema; every other field is the project's. */
export const SPEC_FIELDS = new Map<v.GenericSchema, readonly string[] | 'all'>([
  [HoldRequest, 'all'],
  [BookingRequest, 'all'],
  [ReferenceRequestCreate, 'all'],
  [RefereeInput, 'all'],
  [R.Hold, 'all'],
  // `updated_at` is the project's (the Services feed orders by it).
  [R.Booking, Object.keys(R.Booking.entries).filter((k) => k !== 'updated_at')],
  [P.ReferenceRequest, 'all'],
  [P.RemindedReferenceRequest, Object.keys(P.ReferenceRequest.entries)],
  [P.Reference, 'all'],
  [P.ReferenceDetail, Object.keys(P.Reference.entries)],
  [R.WebhookEndpoint, 'all'],
  [R.WebhookEndpointWithSecret, Object.keys(R.WebhookEndpoint.entries)],
]);
