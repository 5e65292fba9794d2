/** The API families. Each is its own HTTP API in the cloud and its own prefix locally. */
export const FAMILIES = {
  'clinical-interview': { prefix: '/clinical-interview', title: 'Clinical interview API', stackName: 'ClinicalInterview' },
  'portal-v2': { prefix: '/portal/v2', title: 'Portal API version 2', stackName: 'PortalV2' },
} as const;

export type FamilyId = keyof typeof FAMILIES;

export const FAMILY_IDS = Object.keys(FAMILIES) as FamilyId[];

export const isFamilyId = (value: string): value is FamilyId => value in FAMILIES;
