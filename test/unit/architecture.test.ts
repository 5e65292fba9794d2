import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { findContract } from '../../functions/api/contracts/index.js';
import { ROUTES, routeKey } from '../../functions/api/routes/index.js';
import { PATH_PARAMS, pathParamNames } from '../../functions/api/schemas/params.js';
import { HOLD_MINUTES } from '../../functions/core/inventory/hold-time.js';
import { FAMILY_IDS } from '../../functions/core/platform/families.js';
import { PROJECT_ROOT } from '../../lib/routes.js';

/** Guard rails of shared/architecture.md, checked on the source as it is. */

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });

const rel = (path: string) => relative(PROJECT_ROOT, path).replaceAll('\\', '/');

/** Every module specifier a file imports or re-exports, statically or dynamically, types included. */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const specifiers = [
    ...source.matchAll(/(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...source.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
  ];
  return specifiers.map((m) => m[1]!);
}

/** A relative specifier as a project path (`functions/core/x.ts`); packages stay as they are. */
const target = (from: string, specifier: string) => (specifier.startsWith('.') ? rel(resolve(dirname(from), specifier.replace(/\.js$/, '.ts'))) : specifier);

const FUNCTIONS = filesUnder(join(PROJECT_ROOT, 'functions'));
const edges = FUNCTIONS.flatMap((file) => importsOf(file).map((specifier) => ({ from: rel(file), to: target(file, specifier) })));
const layerOf = (path: string) => path.split('/').slice(0, 2).join('/');

describe('layers', () => {
  it('nothing under functions/ imports lib/', () => {
    expect(edges.filter((e) => e.to.startsWith('lib/'))).toEqual([]);
  });

  it('core imports no http, middleware, consumers or aws-lambda', () => {
    const bad = edges.filter((e) => e.from.startsWith('functions/core/') && (/^functions\/(http|middleware|consumers)\//.test(e.to) || e.to === 'aws-lambda'));
    expect(bad).toEqual([]);
  });

  it('every transaction goes through platform/transact.ts, so a failed condition is read by part name, never by position', () => {
    const raw = FUNCTIONS.map(rel)
      .filter((f) => f !== 'functions/core/platform/transact.ts' && f !== 'functions/core/platform/conditions.ts')
      .filter((f) => /TransactWriteCommand|cancellationReasons|CancellationReasons/.test(readFileSync(join(PROJECT_ROOT, f), 'utf8')));
    expect(raw).toEqual([]);
  });

  it('no file under functions/ grows past 350 lines: split it by meaning', () => {
    const long = FUNCTIONS.map(rel)
      .map((f) => ({ file: f, lines: readFileSync(join(PROJECT_ROOT, f), 'utf8').trimEnd().split('\n').length }))
      .filter((f) => f.lines > 350);
    expect(long).toEqual([]);
  });

  it("a handler module imports no other handler: what two share lives in a `_` helper (loading a handler's module builds its handler, which drags its whole operation into the importer's bundle)", () => {
    const isHandler = (f: string) => f.startsWith('functions/http/') && !f.split('/').pop()!.startsWith('_');
    expect(edges.filter((e) => isHandler(e.from) && isHandler(e.to))).toEqual([]);
  });

  it('middleware imports no handler module', () => {
    expect(edges.filter((e) => e.from.startsWith('functions/middleware/') && e.to.startsWith('functions/http/'))).toEqual([]);
  });

  it('the route table, contracts and OpenAPI builder reach no AWS SDK, middy or Lambda types', () => {
    const seen = new Set<string>();
    const pending = FUNCTIONS.map(rel).filter((f) => f.startsWith('functions/api/'));
    const offending: string[] = [];
    while (pending.length) {
      const file = pending.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      for (const e of edges.filter((x) => x.from === file)) {
        if (/^(@aws-sdk|@smithy|@middy|aws-lambda)/.test(e.to)) offending.push(`${e.from} -> ${e.to}`);
        if (e.to.startsWith('functions/')) pending.push(e.to);
      }
    }
    expect(offending).toEqual([]);
    expect([...seen].some((f) => layerOf(f) === 'functions/http')).toBe(false);
  });
});

describe('the route table', () => {
  it('routes every handler file under functions/http exactly once per family that offers it, and helpers start with _', () => {
    const handlerFiles = filesUnder(join(PROJECT_ROOT, 'functions', 'http'))
      .map((f) =>
        rel(f)
          .replace(/^functions\/http\//, '')
          .replace(/\.ts$/, ''),
      )
      .filter((f) => !f.split('/').pop()!.startsWith('_'));
    const routed = new Set(ROUTES.map((r) => r.handler));
    expect(handlerFiles.filter((f) => !routed.has(f))).toEqual([]);
    expect([...routed].filter((h) => !handlerFiles.includes(h))).toEqual([]);
    for (const family of FAMILY_IDS) {
      const handlers = ROUTES.filter((r) => r.family === family).map((r) => r.handler);
      expect(handlers.length).toBe(new Set(handlers).size);
    }
  });

  it('gives every route a contract entry', () => {
    expect(ROUTES.filter((r) => !findContract(r)).map((r) => `${r.family} ${r.operationId}`)).toEqual([]);
  });

  it('has unique (family, method, path) and (family, operationId)', () => {
    const keys = ROUTES.map((r) => `${r.family} ${routeKey(r)}`);
    const ids = ROUTES.map((r) => `${r.family} ${r.operationId}`);
    expect(keys.length).toBe(new Set(keys).size);
    expect(ids.length).toBe(new Set(ids).size);
  });

  it('has a schema for every path parameter', () => {
    const missing = ROUTES.flatMap((r) =>
      pathParamNames(r.path)
        .filter((name) => !Object.hasOwn(PATH_PARAMS, name))
        .map((name) => `${r.path} {${name}}`),
    );
    expect(missing).toEqual([]);
  });

  it('lets only creating POSTs take an Idempotency-Key', () => {
    expect(ROUTES.filter((r) => r.idempotent && r.method !== 'POST').map((r) => r.operationId)).toEqual([]);
  });
});

describe('rule constants in user-facing text', () => {
  const holdFigure = new RegExp(`\\b${HOLD_MINUTES}[ -]minutes?\\b`);
  it('contracts and pages interpolate HOLD_MINUTES instead of copying the figure', () => {
    const sources = [...filesUnder(join(PROJECT_ROOT, 'functions', 'api', 'contracts')), ...filesUnder(join(PROJECT_ROOT, 'functions', 'http'))];
    const copies = sources.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => holdFigure.test(line) && !/^\s*(\/\/|\*|\/\*\*)/.test(line))
        .map((line) => `${rel(file)}: ${line.trim().slice(0, 80)}`),
    );
    expect(copies).toEqual([]);
  });

  it('the docs state the hold as HOLD_MINUTES long wherever they give its length', () => {
    const docs = [
      join(PROJECT_ROOT, 'README.md'),
      ...readdirSync(join(PROJECT_ROOT, 'docs'))
        .filter((n) => n.endsWith('.md'))
        .map((n) => join(PROJECT_ROOT, 'docs', n)),
    ];
    const stated = docs.flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(/(\d+)-minute (?:seat )?holds?|holds? (?:a \w+ |one )?(?:for )?(\d+) minutes/gi)].map((m) => ({
        file: rel(file),
        minutes: Number(m[1] ?? m[2]),
      })),
    );
    expect(stated.length).toBeGreaterThan(2);
    expect(stated.filter((s) => s.minutes !== HOLD_MINUTES)).toEqual([]);
  });
});

describe('configuration', () => {
  const sources = FUNCTIONS.map((file) => ({ file: rel(file), text: readFileSync(file, 'utf8') }));
  it('functions read process.env only in the configuration module', () => {
    expect(sources.filter((s) => s.text.includes('process.env') && s.file !== 'functions/core/platform/config.ts').map((s) => s.file)).toEqual([]);
  });

  it('every environment variable a function reads is listed under Settings in docs/operations.md', () => {
    const read = new Set(
      sources.flatMap(({ text }) => [
        ...[
          ...text.matchAll(
            /\b(?:env|environment\(\))\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]|\b(?:requireEnv|intEnv|datesEnv|pricesEnv)\(['"]([A-Z][A-Z0-9_]+)['"]/g,
          ),
        ].map((m) => m[1] ?? m[2] ?? m[3]!),
        ...[...text.matchAll(/_ENV = '([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]!),
        ...[...text.matchAll(/`(QUEUE_URL|FAMILY_URL)_\$\{/g)].map((m) => `${m[1]!}_<ID>`),
      ]),
    );
    const operations = readFileSync(join(PROJECT_ROOT, 'docs', 'operations.md'), 'utf8');
    const settings = operations.slice(operations.indexOf('## Settings'));
    const listed = new Set([...settings.matchAll(/`([A-Z][A-Z0-9_]+(?:_<ID>)?)`/g)].map((m) => m[1]!));
    expect(read.size).toBeGreaterThan(40);
    expect([...read].filter((name) => !listed.has(name)).sort()).toEqual([]);
  });
});
