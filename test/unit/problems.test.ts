import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DOMAIN_PROBLEMS } from '../../functions/middleware/problems.js';
import { PROJECT_ROOT } from '../../lib/routes.js';

/** Codes the API never answers as their own type: field refusals become `/problems/validation`; the others are the operator CLI's. */
const NOT_ANSWERED_AS_SUCH = new Set(['invalid-field', 'webhook-url-refused', 'client-exists', 'invalid-catalog']);

const sources = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [readFileSync(path, 'utf8')] : [];
  });

it("the README's error table names every problem type the API can answer", () => {
  const edgeTypes = sources(join(PROJECT_ROOT, 'functions')).flatMap((s) => [...s.matchAll(/HttpProblem\(\s*\d+,\s*'([a-z-]+)'/g)].map((m) => m[1]!));
  const types = new Set([...Object.keys(DOMAIN_PROBLEMS).filter((c) => !NOT_ANSWERED_AS_SUCH.has(c)), ...edgeTypes, 'malformed-json', 'internal']);
  const readme = readFileSync(join(PROJECT_ROOT, 'README.md'), 'utf8');
  const table = /### Errors[\s\S]*?\n## /.exec(readme)![0];
  expect([...types].filter((t) => !table.includes(`/problems/${t}\``) && !table.includes(`\`${t}\``))).toEqual([]);
});
