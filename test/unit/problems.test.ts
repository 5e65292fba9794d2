import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROBLEM_TYPES } from '../../functions/api/problem-types.js';
import { PROJECT_ROOT } from '../../lib/routes.js';

/** Codes the API never answers as their own type: field refusals become `/problems/validation`; the others are the operator CLI's. */
const NOT_ANSWERED_AS_SUCH = new Set(['invalid-field', 'webhook-url-refused', 'client-exists', 'invalid-catalog']);

it('the errors table of docs/api.md names every problem type the API can answer', () => {
  const types = new Set(Object.keys(PROBLEM_TYPES).filter((c) => !NOT_ANSWERED_AS_SUCH.has(c)));
  const guide = readFileSync(join(PROJECT_ROOT, 'docs', 'api.md'), 'utf8');
  const table = /## Errors[\s\S]*$/.exec(guide)![0];
  expect([...types].filter((t) => !table.includes(`/problems/${t}\``) && !table.includes(`\`${t}\``))).toEqual([]);
});
