/**
 * The request groups beside references, by kind name, and their path
 * segments: the one list both the path parameter's picklist and the
 * declarations follow. Kept apart from the declarations so that every HTTP
 * function, which validates `{group}` at its edge, does not carry every
 * group's schemas.
 */
export const GROUP_KIND_NAMES = [
  'training',
  'occupational_health',
  'practical_training',
  'life_support',
  'appraisal',
  'certificate',
  'training_verification',
] as const;
export type GroupKindName = (typeof GROUP_KIND_NAMES)[number];

/** A kind's path segment: `occupational_health` → `occupational-health-requests`. */
export const segmentOf = (kind: string): string => `${kind.replaceAll('_', '-')}-requests`;

export const GROUP_SEGMENTS = GROUP_KIND_NAMES.map(segmentOf);

/**
 * The kinds whose data is special category health data: an acting user reads their requests with
 * `health:read`. Their declarations say `special_category` (a unit test holds
 * the two together); this list is what the edge checks before any read.
 */
export const HEALTH_KIND_NAMES: readonly GroupKindName[] = ['occupational_health'];
export const isHealthSegment = (segment: string): boolean => HEALTH_KIND_NAMES.some((kind) => segmentOf(kind) === segment);
