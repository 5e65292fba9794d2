import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { FAMILY_IDS } from '../../functions/core/platform/families.js';
import { PROJECT_ROOT } from '../../lib/routes.js';

/**
 * Engines and families (issue #37): the shared folders of functions/core
 * are engines; a folder named after a family is that family's. An engine
 * never imports a family: what a family provides to an engine is listed in
 * functions/core/registries/, which only the edges (handlers, workers) read.
 */

const CORE = join(PROJECT_ROOT, 'functions/core');
const REGISTRIES = 'registries';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

/** Every module specifier a file imports or re-exports, statically or dynamically, types included. */
const importsOf = (file: string): string[] => {
  const source = readFileSync(file, 'utf8');
  return [...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g), ...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (m) => m[1]!,
  );
};

/** The folder of functions/core a path is in ('' at the top: the demo data, which seeds every family). */
const folderOf = (path: string) => {
  const inCore = relative(CORE, path).replaceAll('\\', '/');
  return inCore.includes('/') ? inCore.split('/')[0]! : '';
};

const folders = readdirSync(CORE).filter((name) => statSync(join(CORE, name)).isDirectory());
const FAMILY_FOLDERS = folders.filter((name) => (FAMILY_IDS as string[]).includes(name));
const ENGINE_FOLDERS = folders.filter((name) => !FAMILY_FOLDERS.includes(name) && name !== REGISTRIES);

const edges = filesUnder(CORE).flatMap((file) =>
  importsOf(file)
    .filter((specifier) => specifier.startsWith('.'))
    .map((specifier) => ({ from: relative(CORE, file).replaceAll('\\', '/'), to: folderOf(resolve(dirname(file), specifier)) })),
);

it('finds the engines and the families', () => {
  expect(ENGINE_FOLDERS).toEqual(expect.arrayContaining(['bookings', 'inventory', 'commerce', 'platform']));
  expect(FAMILY_FOLDERS).toEqual(expect.arrayContaining(['clinical-interview', 'practical-training', 'virtual-life-support', 'portal-v2']));
});

it('no engine folder imports a family folder', () => {
  const crossing = edges.filter((e) => ENGINE_FOLDERS.includes(folderOf(join(CORE, e.from))) && FAMILY_FOLDERS.includes(e.to));
  expect(crossing).toEqual([]);
});

it('only the edges read the registries', () => {
  expect(edges.filter((e) => folderOf(join(CORE, e.from)) !== REGISTRIES && e.to === REGISTRIES)).toEqual([]);
});
