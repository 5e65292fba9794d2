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
  /** Deprecated families answer with Deprecation/Sunset headers and 410 after the sunset. */
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
  },
  'portal-v2': {
    prefix: '/portal/v2',
    title: 'Portal API version 2',
    stackName: 'PortalV2',
    envelope: 'data-message',
    tokens: 'own',
    clientOperations: false,
  },
  'practical-training': {
    prefix: '/practical-training',
    title: 'Practical training API',
    stackName: 'PracticalTraining',
    envelope: 'bare',
    tokens: 'own',
    clientOperations: true,
  },
  'registration-monitoring': {
    prefix: '/registration-monitoring',
    title: 'Registration assurance monitoring API',
    stackName: 'RegistrationMonitoring',
    envelope: 'bare',
    tokens: 'own',
    clientOperations: false,
    entitlement: 'monitoring',
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
