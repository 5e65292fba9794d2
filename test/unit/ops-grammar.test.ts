import { isFamilyId } from '../../functions/core/platform/families.js';
import { OPS_AREAS } from '../../lib/ops/areas.js';
import { opsTree, renamed, resolve, type OpsNode } from '../../lib/ops/grammar.js';
import { opsKit, UsageError } from '../../lib/ops/kit.js';

/** The operator CLI's grammar, read from the declared tree without a stack: what `--help` says at each level, what a wrong word gets, where old names lead. */

const tree = opsTree(OPS_AREAS, opsKit({}, []));
const run = (...words: string[]) => resolve(tree, words, false);
const help = (...words: string[]) => {
  const found = resolve(tree, words, true);
  if (!('help' in found)) throw new Error(`no help for ${words.join(' ')}`);
  return found.help;
};
const pathOf = (...words: string[]) => {
  const found = run(...words);
  if (!('node' in found)) throw new Error(`${words.join(' ')} is help, not a command`);
  return { path: found.node.path.join(' '), rest: found.rest, notice: found.notice };
};
const mistake = (...words: string[]) => {
  try {
    run(...words);
  } catch (err) {
    if (err instanceof UsageError) return err.message;
    throw err;
  }
  throw new Error(`${words.join(' ')} was accepted`);
};

it('is <family> <resource> <action> for families and <resource> <action> for shared work, named as the API names its families', () => {
  const top = [...tree.children.values()];
  expect(top.filter((n) => n.title).map((n) => n.path[0])).toEqual([
    'clinical-interview',
    'portal-v2',
    'practical-training',
    'virtual-life-support',
    'registration-monitoring',
  ]);
  expect(top.filter((n) => n.title).every((n) => isFamilyId(n.path[0]))).toBe(true);
  expect(top.filter((n) => !n.title).map((n) => n.path[0])).toEqual(['clients', 'deprecated', 'backfill', 'ledger', 'demo', 'team', 'outbox', 'data-subjects']);
  const depths = new Set<number>();
  const walk = (n: OpsNode) => (n.command ? depths.add(n.path.length - (tree.children.get(n.path[0]!)!.title ? 1 : 0)) : n.children.forEach(walk));
  walk(tree);
  expect([...depths]).toEqual([2]);
  expect(pathOf('practical-training', 'bookings', 'cancel').path).toBe('practical-training bookings cancel');
  expect(pathOf('clients', 'disable', 'cl_1')).toMatchObject({ path: 'clients disable', rest: ['cl_1'], notice: undefined });
});

it('answers --help at each level with what the level below holds', () => {
  const top = help();
  expect(top).toMatch(/^Usage: npm run ops -- <family> <resource> <action> \[options\]/);
  expect(top).toMatch(/^ {2}virtual-life-support +Virtual life-support training API: courses, sessions, bookings, equipment, credits, money$/m);
  expect(top).toMatch(/^ {2}clients +create, list, rotate-secret, disable, enable, invoicing, references, portal-v1$/m);
  expect(resolve(tree, [], false)).toEqual({ help: top });

  const family = help('clinical-interview');
  expect(family).toMatch(/^Usage: npm run ops -- clinical-interview <resource> <action> \[options\]/);
  expect(family).toMatch(/^ {2}bookings cancel +cancel; credits or money go back$/m);

  const resource = help('virtual-life-support', 'equipment');
  expect(resource).toMatch(/^Usage: npm run ops -- virtual-life-support equipment <action> \[options\]/);
  expect(resource.match(/^ {2}\S+/gm)).toEqual(['  dispatch', '  delivered', '  return-shipped', '  returned', '  sweep']);

  expect(help('virtual-life-support', 'equipment', 'dispatch')).toMatch(
    /^Usage: npm run ops -- virtual-life-support equipment dispatch --id ID --carrier NAME --tracking NUMBER \[--url URL\]\n\n {2}the manikin is posted/,
  );
  expect(help('ledger')).toMatch(/^ {2}list +every ledger entry of the month/m);
});

it('names what is allowed where a word is wrong or missing, in one line', () => {
  expect(mistake('bookings-everywhere')).toMatch(
    /^"bookings-everywhere" is not a family or shared resource: clinical-interview, portal-v2, .*, outbox, data-subjects \(see npm run ops -- --help\)$/,
  );
  expect(mistake('clinical-interview', 'course')).toBe(
    '"course" is not a resource of clinical-interview: types, interviewers, credits, money, bookings (see npm run ops -- clinical-interview --help)',
  );
  expect(mistake('practical-training', 'events', 'delete')).toBe(
    '"delete" is not an action of practical-training events: add, show, capacity, cancel (see npm run ops -- practical-training events --help)',
  );
  expect(mistake('outbox')).toBe('outbox needs an action: parked (see npm run ops -- outbox --help)');
  expect(mistake('registration-monitoring')).toMatch(/^registration-monitoring needs a resource: account, evidence, checks, usage, register \(/);
  expect(mistake('clients', 'list', 'everything')).toBe('Unexpected "everything" after clients list (see npm run ops -- clients list --help)');
  expect(mistake('clients', 'disable', 'cl_1', 'cl_2')).toMatch(/^Unexpected "cl_2" after clients disable/);
  for (const message of [mistake('nope'), mistake('clinical-interview', 'nope'), mistake('clinical-interview', 'bookings')])
    expect(message).not.toContain('\n');
});

it('still runs an old name, with a notice naming the new one', () => {
  const notice = (path: string) => `renamed: use npm run ops -- ${path} (the old name goes in a later release)`;
  expect(pathOf('training-booking', 'cancel')).toEqual({
    path: 'practical-training bookings cancel',
    rest: [],
    notice: notice('practical-training bookings cancel'),
  });
  expect(pathOf('vls-equipment', 'dispatch').path).toBe('virtual-life-support equipment dispatch');
  expect(pathOf('bookings', 'list').path).toBe('clinical-interview bookings list');
  expect(pathOf('course', 'add').path).toBe('practical-training courses add');
  expect(pathOf('monitoring', 'evidence-verify').path).toBe('registration-monitoring evidence verify');
  expect(pathOf('templates', 'list').path).toBe('portal-v2 templates list');
  expect(pathOf('seed-demo')).toMatchObject({ path: 'demo seed', notice: notice('demo seed') });
  // `ledger` alone was the month's ledger; `ledger --help` is now the resource's help.
  expect(pathOf('ledger')).toMatchObject({ path: 'ledger list', notice: notice('ledger list') });
  expect(help('ledger')).toMatch(/^Usage: npm run ops -- ledger <action>/);
  // Shared commands kept their names: no notice.
  expect(pathOf('team', 'create').notice).toBeUndefined();
});

it('has no old name that a new command now answers to, and no two commands with one old name', () => {
  const old = renamed(tree);
  for (const [name, node] of old) {
    const words = name.split(' ');
    let at: OpsNode | undefined = tree;
    for (const w of words) at = at?.children.get(w);
    // A command under the old words would take them over, and the old name would silently run something else.
    if (at?.command) expect(at.path.join(' ')).toBe(node.path.join(' '));
    expect(node.command).toBeDefined();
  }
  const count = (n: OpsNode): number => (n.formerly ? 1 : 0) + [...n.children.values()].reduce((sum, c) => sum + count(c), 0);
  expect(old.size).toBe(count(tree));
});
