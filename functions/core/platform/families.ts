/**
 * The API families, each its own HTTP API in the cloud and its own prefix
 * locally. Everything the edge needs to know about a family is stated here
 * once: the route table, the stacks, the OpenAPI documents and the shared
 * handlers read it.
 */
export interface FamilySpec {
  prefix: string;
  title: string;
  /** The CDK stack (and CloudFormation stack name suffix) of the family. */
  stackName: string;
  /** How a single resource is answered: bare, as the clinical interview specification shows, or in the portal's `{data, message}` envelope. */
  envelope: 'bare' | 'data-message';
  /** Whose bearer tokens the family accepts: its own, or its parent's (the facade families). */
  tokens: 'own' | { parent: string };
  /** Offers the client operations (booking URL, balances, wallet transactions). */
  clientOperations: boolean;
  /** A product the client's account must include for the family's token exchange (else 403 forbidden). */
  entitlement?: 'monitoring';
  /**
   * Use of the family is a flag on each client (portal v1):
   * without it every bearer operation is 403 (access/clients.ts).
   */
  perClientAccess?: boolean;
  /**
   * Has team users (decision 10): every bearer operation, shared ones
   * included, takes `Acting-User: <team user id>` and says what it needs
   * (Operation `actingUser`).
   */
  actingUser?: boolean;
  /** Other families its links lead to (portal v2's booking request groups: the invite pages of the course families). */
  links?: readonly string[];
  /** Offers the webhook endpoint operations (the facades have none of their own). */
  webhooks: boolean;
  /** Takes `candidate_pays` bookings: its payment pages and Stripe's events (`POST /payments/stripe-events`). */
  candidatePayments?: boolean;
  /**
   * Deprecated families answer every request with Deprecation, Sunset and
   * Link headers, and 410 after the sunset and in brownout windows
   * (decision 13). These are the defaults; the environment may move them
   * (platform/deprecation.ts). `successor`: the family that replaces it.
   */
  deprecation?: { deprecatedAt: string; sunsetAt: string; successor?: string };
}

export const FAMILIES = {
  'clinical-interview': {
    prefix: '/clinical-interview',
    title: 'Clinical interview API',
    stackName: 'ClinicalInterview',
    envelope: 'bare',
    tokens: 'own',
    clientOperations: true,
    webhooks: true,
    candidatePayments: true,
  },
  'portal-v2': {
    prefix: '/portal/v2',
    title: 'Portal API version 2',
    stackName: 'PortalV2',
    envelope: 'data-message',
    tokens: 'own',
    clientOperations: false,
    links: ['practical-training', 'virtual-life-support'],
    webhooks: true,
    actingUser: true,
  },
  'practical-training': {
    prefix: '/practical-training',
    title: 'Practical training API',
    stackName: 'PracticalTraining',
    envelope: 'bare',
    tokens: 'own',
    clientOperations: true,
    webhooks: true,
    candidatePayments: true,
  },
  services: {
    prefix: '/services',
    title: 'Services API',
    stackName: 'Services',
    envelope: 'bare',
    tokens: { parent: 'clinical-interview' },
    clientOperations: false,
    webhooks: false,
  },
  'practical-training-legacy': {
    prefix: '/practical-training-legacy',
    title: 'Practical training legacy API (deprecated)',
    stackName: 'PracticalTrainingLegacy',
    envelope: 'bare',
    tokens: { parent: 'practical-training' },
    clientOperations: false,
    webhooks: false,
    deprecation: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2027-06-30T00:00:00Z', successor: 'practical-training' },
  },
  'virtual-life-support': {
    prefix: '/virtual-life-support',
    title: 'Virtual life-support training API',
    stackName: 'VirtualLifeSupport',
    envelope: 'bare',
    tokens: 'own',
    clientOperations: true,
    webhooks: true,
    candidatePayments: true,
  },
  'registration-monitoring': {
    prefix: '/registration-monitoring',
    title: 'Registration assurance monitoring API',
    stackName: 'RegistrationMonitoring',
    envelope: 'bare',
    tokens: 'own',
    clientOperations: false,
    webhooks: true,
    entitlement: 'monitoring',
    actingUser: true,
  },
  'portal-v1': {
    prefix: '/portal/v1',
    title: 'Portal API version 1 (deprecated)',
    stackName: 'PortalV1',
    envelope: 'data-message',
    tokens: { parent: 'portal-v2' },
    clientOperations: false,
    // Its two webhook operations are its own (decision 12): they make portal v2 endpoints.
    webhooks: false,
    perClientAccess: true,
    deprecation: { deprecatedAt: '2026-01-01T00:00:00Z', sunsetAt: '2027-06-30T00:00:00Z', successor: 'portal-v2' },
  },
} as const satisfies Record<string, FamilySpec>;

export type FamilyId = keyof typeof FAMILIES;

export const FAMILY_IDS = Object.keys(FAMILIES) as FamilyId[];

export const familySpec = (family: FamilyId): FamilySpec => FAMILIES[family];

export const isFamilyId = (value: unknown): value is FamilyId => typeof value === 'string' && Object.hasOwn(FAMILIES, value);

/** The family whose tokens a family accepts. */
export const tokenFamilyOf = (family: FamilyId): FamilyId => {
  const tokens = familySpec(family).tokens;
  return tokens === 'own' ? family : (tokens.parent as FamilyId);
};

/** The variable that gives a function another family's HTTP API URL, where there is no custom domain. */
export const familyUrlEnv = (family: FamilyId): string => `FAMILY_URL_${family.toUpperCase().replaceAll('-', '_')}`;
