import { loadCatalog } from '../clinical-interview/catalog.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';

/** What a family sells, one credits wallet each: interview types in the clinical interview family. */
export async function productsOf(deps: Deps, family: FamilyId) {
  switch (family) {
    case 'clinical-interview':
      return (await loadCatalog(deps)).types;
    default:
      return [];
  }
}
