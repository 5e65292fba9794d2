import type { GroupDeclaration } from '../../requests/group.js';
import { appraisal } from './appraisal.js';
import { certificate } from './certificate.js';
import { occupationalHealth } from './occupational-health.js';
import { training } from './training.js';
import { trainingVerification } from './training-verification.js';

/** The request groups of portal v2 beside references, by path segment (the booking kinds join when their families can invite). */
export const GROUP_DECLARATIONS = [training, occupationalHealth, appraisal, certificate, trainingVerification] as const satisfies readonly GroupDeclaration[];

export const GROUP_SEGMENTS = GROUP_DECLARATIONS.map((d) => d.segment);
export const GROUP_KINDS = GROUP_DECLARATIONS.map((d) => d.kind);
export type GroupSegment = (typeof GROUP_DECLARATIONS)[number]['segment'];

export const declarationBySegment = (segment: string): GroupDeclaration | undefined => GROUP_DECLARATIONS.find((d) => d.segment === segment);
export const declarationByKind = (kind: string): GroupDeclaration | undefined => GROUP_DECLARATIONS.find((d) => d.kind === kind);
