import { clinicalInterviewSubjectFinder } from '../clinical-interview/data-subject.js';
import { portalV2SubjectFinder } from '../portal-v2/subject-finder.js';
import { practicalTrainingSubjectFinder } from '../practical-training/data-subject.js';
import { registrationMonitoringSubjectFinder } from '../registration-monitoring/data-subject.js';
import { virtualLifeSupportSubjectFinder } from '../virtual-life-support/data-subject.js';
import type { SubjectFinder } from '../data-rights/adapter.js';
import type { DataSubjectFamily } from '../data-rights/families.js';

/** Each family's finder (data-subject-adapters.ts has the whole adapters): what an erasure's start reads to refuse one while a booking is to come. */
export const DATA_SUBJECT_FINDERS: Record<DataSubjectFamily, SubjectFinder> = {
  'clinical-interview': clinicalInterviewSubjectFinder,
  'practical-training': practicalTrainingSubjectFinder,
  'virtual-life-support': virtualLifeSupportSubjectFinder,
  'registration-monitoring': registrationMonitoringSubjectFinder,
  'portal-v2': portalV2SubjectFinder,
};
