import { clinicalInterviewSubjects } from '../clinical-interview/data-subject.js';
import { portalV2Subjects } from '../portal-v2/data-subject.js';
import { practicalTrainingSubjects } from '../practical-training/data-subject.js';
import { registrationMonitoringSubjects } from '../registration-monitoring/data-subject.js';
import { virtualLifeSupportSubjects } from '../virtual-life-support/data-subject.js';
import type { DataSubjectAdapter } from '../data-rights/adapter.js';
import type { DataSubjectFamily } from '../data-rights/families.js';

/** Each family's adapter: the type makes every family of data-rights/families.ts provide one. */
export const DATA_SUBJECT_ADAPTERS: Record<DataSubjectFamily, DataSubjectAdapter> = {
  'clinical-interview': clinicalInterviewSubjects,
  'practical-training': practicalTrainingSubjects,
  'virtual-life-support': virtualLifeSupportSubjects,
  'registration-monitoring': registrationMonitoringSubjects,
  'portal-v2': portalV2Subjects,
};
