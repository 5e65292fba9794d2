import { FAMILIES, familyUrlEnv, type FamilyId } from './families.js';
import { environment } from './config.js';

/*
 * Kept apart from the edge middleware, which reads its deprecation schedules
 * once when loaded: a module that only needs an address (the local stack's
 * demo seeding) must not load the edge before the stack's environment is set.
 */

/**
 * Another family's base URL as this function knows it: PUBLIC_ROOT_URL and
 * the family's prefix behind the custom domain (and locally); otherwise the
 * family's own HTTP API, whose URL its stack passes in `FAMILY_URL_<FAMILY>`.
 */
export const familyUrl = (family: FamilyId): string | undefined => {
  const root = environment().PUBLIC_ROOT_URL;
  return root ? root.replace(/\/$/, '') + FAMILIES[family].prefix : environment()[familyUrlEnv(family)]?.replace(/\/$/, '') || undefined;
};

/** The same, for links that must be there (a facade's links into its parent family). */
export function familyBaseUrl(family: FamilyId): string {
  const url = familyUrl(family);
  if (!url) throw new Error(`No address for the ${family} family: set PUBLIC_ROOT_URL or ${familyUrlEnv(family)}`);
  return url;
}
