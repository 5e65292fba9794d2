import { loadCatalog } from '../clinical-interview/catalog.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { loadCatalogue } from '../practical-training/catalogue.js';
import type { ProductRef } from './ledger.js';
import { loadCourses } from '../virtual-life-support/catalogue.js';

export interface Products {
  /** What the family calls its product in balances and the ledger. */
  label: ProductRef['kind'];
  products: { id: number; name: string; active: boolean }[];
}

/** What a family sells, one credits wallet each: interview types, courses. */
export async function productsOf(deps: Deps, family: FamilyId): Promise<Products> {
  switch (family) {
    case 'clinical-interview':
      return { label: 'interview_type', products: (await loadCatalog(deps)).types };
    case 'practical-training':
      return { label: 'course', products: (await loadCatalogue(deps)).courses };
    case 'virtual-life-support':
      return { label: 'course', products: await loadCourses(deps) };
    default:
      return { label: 'interview_type', products: [] };
  }
}
