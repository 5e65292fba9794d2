import { familySpec } from '../../functions/core/platform/families.js';
import { UsageError, type OpsArea, type OpsCommand, type OpsKit } from './kit.js';

/**
 * The operator CLI's grammar: `ops <family> <resource> <action>` for a
 * family's work, `ops <resource> <action>` for shared work. The tree is built
 * once from the areas (lib/ops/<family>.ts), so dispatch, `--help` at every
 * level and the renamed commands' notices all read the same declarations.
 */

export const OPS = 'npm run ops --';

export interface OpsNode {
  /** The words that lead here (`['clinical-interview', 'bookings']`). */
  path: string[];
  /** A family's title; shared resources have none. */
  title?: string;
  children: Map<string, OpsNode>;
  command?: OpsCommand;
  /** The command's name before this grammar. */
  formerly?: string;
}

const node = (path: string[], title?: string): OpsNode => ({ path, title, children: new Map() });

/** Every area's commands as one tree; two commands with one name is a mistake in the areas. */
export function opsTree(areas: OpsArea[], k: OpsKit): OpsNode {
  const root = node([]);
  for (const area of areas) {
    let parent = root;
    if (area.family) {
      parent = root.children.get(area.family) ?? node([area.family], familySpec(area.family).title);
      root.children.set(area.family, parent);
    }
    for (const [name, command] of Object.entries(area.commands(k))) {
      const [resource, action, ...more] = name.split(' ');
      if (!resource || !action || more.length) throw new Error(`ops command "${name}" is not "<resource> <action>"`);
      const group = parent.children.get(resource) ?? node([...parent.path, resource]);
      parent.children.set(resource, group);
      if (group.children.has(action)) throw new Error(`ops command "${[...group.path, action].join(' ')}" is declared twice`);
      const formerly = typeof area.formerly === 'function' ? area.formerly(name) : area.formerly?.[name];
      group.children.set(action, { ...node([...group.path, action]), command, formerly });
    }
  }
  return root;
}

/** Old names (`training-booking cancel`, `seed-demo`) and the node that replaced each. */
export function renamed(root: OpsNode): Map<string, OpsNode> {
  const found = new Map<string, OpsNode>();
  const walk = (n: OpsNode) => {
    if (n.formerly) found.set(n.formerly, n);
    n.children.forEach(walk);
  };
  walk(root);
  return found;
}

/** What the word after a node names, with its article. */
const levelOf = (n: OpsNode) => (n.path.length === 0 ? 'a family or shared resource' : n.title ? 'a resource' : 'an action');
const pad = (rows: [string, string][]) => {
  const width = Math.max(...rows.map(([left]) => left.length)) + 3;
  return rows.map(([left, right]) => `  ${left.padEnd(width)}${right}`.trimEnd()).join('\n');
};
const childNames = (n: OpsNode) => [...n.children.keys()].join(', ');

const TARGET_HELP = `Target:
  (default)        the running local stack, found through $DATA_DIR/local.json (DATA_DIR defaults to .data)
  --table NAME     a deployed table; region and credentials come from the AWS environment
                   (clinical-interview bookings attach-report also needs --bucket NAME, the documents bucket)`;

/** What `--help` prints at a node: the level below it, or a command's options. */
export function helpOf(n: OpsNode): string {
  const here = n.path.join(' ');
  if (n.command) {
    return `Usage: ${OPS} ${here} ${n.command.args}`.trimEnd() + `\n\n  ${n.command.about}\n\n${TARGET_HELP}\n`;
  }
  if (n.path.length === 0) {
    const all = [...n.children.values()];
    return `Usage: ${OPS} <family> <resource> <action> [options]     a family's work
       ${OPS} <resource> <action> [options]              work shared by every family
       ${OPS} <words> --help                             what each level holds

Families:
${pad(all.filter((c) => c.title).map((c) => [c.path[0]!, `${c.title}: ${childNames(c)}`]))}

Shared:
${pad(all.filter((c) => !c.title).map((c) => [c.path[0]!, childNames(c)]))}

${TARGET_HELP}
`;
  }
  const leaves: OpsNode[] = [];
  const collect = (c: OpsNode) => (c.command ? leaves.push(c) : c.children.forEach(collect));
  collect(n);
  const below = n.title ? '<resource> <action>' : '<action>';
  return `Usage: ${OPS} ${here} ${below} [options]${n.title ? `\n\n${n.title}` : ''}

${pad(leaves.map((c) => [c.path.slice(n.path.length).join(' '), c.command!.about]))}

Options of each: ${OPS} ${here} ${below} --help
`;
}

export type Resolved = ({ help: string } | { node: OpsNode; command: OpsCommand; rest: string[] }) & { notice?: string };

/**
 * The command the words name, or the help asked for. A word that is not
 * allowed where it stands is one line naming what is (UsageError: exit 2);
 * an old name runs its replacement with a notice.
 */
export function resolve(root: OpsNode, words: string[], help: boolean): Resolved {
  let at = root;
  let used = 0;
  while (!at.command && used < words.length && at.children.has(words[used]!)) at = at.children.get(words[used++]!)!;
  if (!at.command) {
    const old = renamedFrom(root, words);
    if (old && !(help && used === words.length)) {
      const found = resolve(root, [...old.node.path, ...words.slice(old.length)], help);
      return { ...found, notice: `renamed: use ${OPS} ${old.node.path.join(' ')} (the old name goes in a later release)` };
    }
    if (help && used === words.length) return { help: helpOf(at) };
    if (used === words.length && used === 0) return { help: helpOf(root) };
    const where = at.path.length ? ` of ${at.path.join(' ')}` : '';
    const see = `(see ${OPS} ${[...at.path, '--help'].join(' ')})`;
    if (used === words.length) throw new UsageError(`${at.path.join(' ')} needs ${levelOf(at)}: ${childNames(at)} ${see}`);
    throw new UsageError(`"${words[used]}" is not ${levelOf(at)}${where}: ${childNames(at)} ${see}`);
  }
  const rest = words.slice(used);
  const allowed = at.command.word ? 1 : 0;
  if (rest.length > allowed)
    throw new UsageError(`Unexpected "${rest.slice(allowed).join(' ')}" after ${at.path.join(' ')} (see ${OPS} ${at.path.join(' ')} --help)`);
  if (help) return { help: helpOf(at) };
  return { node: at, command: at.command, rest };
}

/** The old name the words start with (two words, or one as `seed-demo` and `ledger`). */
function renamedFrom(root: OpsNode, words: string[]): { node: OpsNode; length: number } | undefined {
  const old = renamed(root);
  for (const length of [2, 1]) {
    const found = words.length >= length ? old.get(words.slice(0, length).join(' ')) : undefined;
    if (found) return { node: found, length };
  }
  return undefined;
}
