import { FAMILY_PATHS } from '../../clients/typescript/src/index.js';
import { FAMILIES } from '../../functions/core/platform/families.js';

/** The typed client stands alone (it imports nothing of the server), so its copy of each family's prefix is held to the server's. */
it('knows every family under the prefix the server serves it at', () => {
  expect(FAMILY_PATHS).toEqual(Object.fromEntries(Object.entries(FAMILIES).map(([family, spec]) => [family, spec.prefix])));
});
