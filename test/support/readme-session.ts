import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/routes.js';

/**
 * The documentation's shell session: every `sh` block marked
 * `<!-- session -->` of the README and then of each guide, in the order the
 * README's tour goes (one terminal, variables carried from page to page).
 * Every other `sh` block must say why it is not part of it
 * (`<!-- not in the session: … -->`), so a new block cannot slip past the test.
 */

/** The pages of the session, in order: the README's tour, then the family guides as its table lists them. */
export const SESSION_PAGES = [
  'README.md',
  'docs/clinical-interview.md',
  'docs/api.md',
  'docs/portal-v2.md',
  'docs/practical-training.md',
  'docs/virtual-life-support.md',
  'docs/services.md',
  'docs/practical-training-legacy.md',
  'docs/registration-monitoring.md',
  'docs/portal-v1.md',
  'docs/webhooks.md',
  'docs/benchmark.md',
  'docs/operations.md',
  'docs/finance.md',
  'docs/privacy.md',
  'docs/architecture.md',
  'docs/decisions.md',
];

/** Every page's text, in session order. */
export const sessionPages = (): string => SESSION_PAGES.map((page) => readFileSync(join(PROJECT_ROOT, page), 'utf8')).join('\n');

export interface Invocation {
  line: string;
  kind: 'curl' | 'npm';
  /** An HTTP status (curl) or an exit code (npm) announced by the line's comment; 'background' for a command ending in &. */
  expect?: number | 'background';
}

export function readmeSession(readme = sessionPages()): { script: string; unmarked: string[] } {
  const blocks: string[] = [];
  const unmarked: string[] = [];
  for (const match of readme.matchAll(/(?:<!-- (session|not in the session: [^>]+) -->\n)?```sh\n([\s\S]*?)```/g)) {
    if (!match[1]) unmarked.push(match[2]!.split('\n')[0]!);
    else if (match[1] === 'session') blocks.push(match[2]!);
  }
  return { script: blocks.join('\n'), unmarked };
}

/** What the session runs, in order: each `curl` and `npm run`, with what its trailing comment says it answers. */
export function invocationsOf(script: string): Invocation[] {
  const calls: Invocation[] = [];
  for (const line of script.split('\n')) {
    if (/^\s*#/.test(line)) continue;
    const comment = /\s#\s+(.*)$/.exec(line)?.[1] ?? '';
    const code = line.slice(0, line.length - (comment ? comment.length + 2 : 0));
    const status = /^(\d{3})\b/.exec(comment)?.[1];
    const exit = /^exit (\d+)\b/.exec(comment)?.[1];
    for (const m of code.matchAll(/\b(curl|npm run)\b/g)) {
      const kind = m[1] === 'curl' ? 'curl' : 'npm';
      const expect = /&\s*$/.test(code) ? 'background' : kind === 'curl' && status ? Number(status) : kind === 'npm' && exit ? Number(exit) : undefined;
      calls.push({ line: line.trim(), kind, expect });
    }
  }
  return calls;
}

/**
 * Shell functions that record each call in `$CALLS` (by start time): curl
 * dumps its response headers, npm its exit code. npm runs in the project
 * while the session's own files (report.pdf) land in the working directory.
 */
export const RECORDING_PRELUDE = String.raw`
stamp() { date +%s%N; }
curl() { local f="$CALLS/$(stamp)"; echo curl > "$f.cmd"; command curl -D "$f.head" "$@"; }
npm() { local f="$CALLS/$(stamp)"; echo npm > "$f.cmd"; command npm --prefix "$PROJECT_ROOT" "$@"; local rc=$?; echo $rc > "$f.exit"; return $rc; }
`;
