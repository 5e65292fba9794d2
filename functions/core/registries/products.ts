import type { BookingFamily } from '../bookings/kind.js';
import { loadCatalog } from '../clinical-interview/catalog.js';
import { NO_PRODUCTS, type Products, type ProductsOf } from '../commerce/products.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { loadCatalogue } from '../practical-training/catalogue.js';
import { loadCourses } from '../virtual-life-support/catalogue.js';

/** What each booking family sells, one credits wallet each: interview types, courses. Apart from the kinds, so that balances load catalogues only. */
export const FAMILY_PRODUCTS: Record<BookingFamily, ProductsOf> = {
  'clinical-interview': async (deps) => ({ label: 'interview_type', products: (await loadCatalog(deps)).types }),
  'practical-training': async (deps) => ({ label: 'course', products: (await loadCatalogue(deps)).courses }),
  'virtual-life-support': async (deps) => ({ label: 'course', products: await loadCourses(deps) }),
};

export const productsOf = (deps: Deps, family: FamilyId): Promise<Products> =>
  Object.hasOwn(FAMILY_PRODUCTS, family) ? FAMILY_PRODUCTS[family as BookingFamily](deps) : Promise.resolve(NO_PRODUCTS);
