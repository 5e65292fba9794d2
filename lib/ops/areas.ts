import { sharedOps } from './clients.js';
import { clinicalInterviewOps } from './clinical-interview.js';
import { dataSubjectOps } from './data-subjects.js';
import type { OpsArea } from './kit.js';
import { outboxOps } from './outbox.js';
import { portalV2Ops } from './portal-v2.js';
import { practicalTrainingOps } from './practical-training.js';
import { registrationMonitoringOps } from './registration-monitoring.js';
import { teamOps } from './team.js';
import { virtualLifeSupportOps } from './virtual-life-support.js';

/** Every operator command, by family then shared, in the order `ops --help` lists them. */
export const OPS_AREAS: OpsArea[] = [
  clinicalInterviewOps,
  portalV2Ops,
  practicalTrainingOps,
  virtualLifeSupportOps,
  registrationMonitoringOps,
  sharedOps,
  teamOps,
  outboxOps,
  dataSubjectOps,
];
