import type { GroupDeclaration } from '../../requests/group.js';
import { appraisal } from './appraisal.js';
import { lifeSupport, practicalTraining } from './booking.js';
import { certificate } from './certificate.js';
import { GROUP_KIND_NAMES, segmentOf, type GroupKindName } from './names.js';
import { occupationalHealth } from './occupational-health.js';
import { training } from './training.js';
import { trainingVerification } from './training-verification.js';

/** Each named group's declaration: the type makes the names and the declarations agree, one for one. */
const BY_KIND: { [K in GroupKindName]: GroupDeclaration<K> } = {
  training,
  occupational_health: occupationalHealth,
  practical_training: practicalTraining,
  life_support: lifeSupport,
  appraisal,
  certificate,
  training_verification: trainingVerification,
};

/** The request groups of portal v2 beside references. */
export const GROUP_DECLARATIONS: readonly GroupDeclaration[] = GROUP_KIND_NAMES.map((kind) => BY_KIND[kind]);
export { GROUP_SEGMENTS, segmentOf } from './names.js';

export const declarationBySegment = (segment: string): GroupDeclaration | undefined => GROUP_DECLARATIONS.find((d) => segmentOf(d.kind) === segment);
export const declarationByKind = (kind: string): GroupDeclaration | undefined => GROUP_DECLARATIONS.find((d) => d.kind === kind);
