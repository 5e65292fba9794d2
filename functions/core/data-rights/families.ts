import type { FamilyId } from '../platform/families.js';

/**
 * The families that hold people's personal data and answer data subject
 * requests (export, erasure). SDK-free: the route tables read it. Each has an
 * adapter in its own folder (`<family>/data-subject.ts`), listed in
 * ./registry.ts, whose type makes every family here provide one.
 */
export const DATA_SUBJECT_FAMILIES = [
  'clinical-interview',
  'practical-training',
  'virtual-life-support',
  'registration-monitoring',
  'portal-v2',
] as const satisfies readonly FamilyId[];
export type DataSubjectFamily = (typeof DATA_SUBJECT_FAMILIES)[number];

export const isDataSubjectFamily = (family: FamilyId): family is DataSubjectFamily => (DATA_SUBJECT_FAMILIES as readonly FamilyId[]).includes(family);

/** The two kinds of request; each runs as a job of its own kind per family. */
export type DataSubjectAction = 'export' | 'erasure';
