import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/routes.js';

/**
 * The docs name source files and the functions in them (`functions/core/x.ts#name`,
 * `x.ts` (`name`, `other`), or `inventory/holds.ts#name` under functions/core or functions/):
 * each file must exist and hold each name, so a move or a rename that leaves the
 * docs behind fails here.
 */
const DOCS = [
  'README.md',
  ...readdirSync(join(PROJECT_ROOT, 'docs'))
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
];
const REFERENCE = /`((?:[\w.-]+\/)+[\w.-]+\.(?:ts|java|mjs|cjs))(?:#(\w+))?`(?: \(((?:`\w+`(?:, )?)+)\))?/g;
const ROOTS = ['functions/', 'lib/', 'bin/', 'test/', 'clients/'];

function references() {
  return DOCS.flatMap((doc) =>
    [...readFileSync(join(PROJECT_ROOT, doc), 'utf8').matchAll(REFERENCE)].map((m) => {
      // Short paths are under functions/core (engines, families) or functions/ (workers, http).
      const path = ROOTS.some((r) => m[1]!.startsWith(r))
        ? m[1]!
        : ([`functions/core/${m[1]!}`, `functions/${m[1]!}`].find((p) => existsSync(join(PROJECT_ROOT, p))) ?? `functions/core/${m[1]!}`);
      const names = [m[2], ...[...(m[3] ?? '').matchAll(/`(\w+)`/g)].map((n) => n[1])].filter((n): n is string => Boolean(n));
      return { doc, path, names };
    }),
  );
}

it('every source file the docs name exists and holds the names given with it', () => {
  const found = references();
  expect(found.length).toBeGreaterThan(50);
  const wrong = found.flatMap(({ doc, path, names }) => {
    const file = join(PROJECT_ROOT, path);
    if (!existsSync(file)) return [`${doc}: ${path} does not exist`];
    const source = readFileSync(file, 'utf8');
    return names.filter((n) => !new RegExp(`\\b${n}\\b`).test(source)).map((n) => `${doc}: ${path} has no ${n}`);
  });
  expect(wrong).toEqual([]);
});
