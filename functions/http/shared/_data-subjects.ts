import { isDataSubjectFamily, type DataSubjectFamily } from '../../core/data-rights/families.js';
import { DomainError } from '../../core/platform/errors.js';
import type { FamilyId } from '../../core/platform/families.js';
import type { Acting } from '../../middleware/acting-user.js';

/** The family of a data subject operation: only those routed reach here, but the type is checked once. */
export function subjectFamily(family: FamilyId): DataSubjectFamily {
  if (!isDataSubjectFamily(family)) throw new DomainError('not-found', 'This family holds no personal data to export or erase');
  return family;
}

export const requester = (clientId: string, acting: Acting | null) => ({ clientId, actingUser: acting ? String(acting.id) : null });
