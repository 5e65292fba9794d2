import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { DomainError } from '../../../functions/core/platform/errors.js';
import {
  checkItem,
  deleteItem,
  itemAbsent,
  itemExists,
  part,
  putItem,
  transact,
  TransactionFailed,
  updateItem,
} from '../../../functions/core/platform/transact.js';
import { testDeps, uniqueName } from '../../support/env.js';
import { cancelledFor, withFaults } from '../../support/faults.js';

let deps: Deps;
beforeAll(async () => {
  deps = await testDeps();
});

const keyOf = (name: string) => ({ pk: `TEST#${name}`, sk: 'ITEM' });
const read = async (name: string) => (await deps.db.send(new GetCommand({ TableName: deps.table, Key: keyOf(name), ConsistentRead: true }))).Item;

describe('transact: failures by the name of the part', () => {
  it('writes every part, or none', async () => {
    const [a, b] = [uniqueName('a'), uniqueName('b')];
    await transact(deps, [part('a', putItem(deps, { ...keyOf(a), n: 1 }, itemAbsent)), part('b', putItem(deps, { ...keyOf(b), n: 1 }, itemAbsent))]);
    const c = uniqueName('c');
    await expect(
      transact(deps, [part('c', putItem(deps, { ...keyOf(c), n: 1 }, itemAbsent)), part('b again', putItem(deps, { ...keyOf(b), n: 2 }, itemAbsent))]),
    ).rejects.toThrow(TransactionFailed);
    expect(await read(c)).toBeUndefined();
    expect((await read(b))?.n).toBe(1);
  });

  it('turns a failed part into its domain error by name, whatever its position', async () => {
    const taken = uniqueName('taken');
    await transact(deps, [part('first', putItem(deps, { ...keyOf(taken), owner: 'x' }))]);
    const failures = { seat: new DomainError('slot-unavailable', 'No seat left'), marker: new DomainError('hold-conflict', 'Already holding') };
    for (const order of [
      ['seat', 'marker'],
      ['marker', 'seat'],
    ]) {
      const parts = order.map((name) =>
        name === 'seat'
          ? part('seat', putItem(deps, { ...keyOf(taken), owner: 'y' }, itemAbsent))
          : part('marker', putItem(deps, { ...keyOf(uniqueName('m')) }, itemAbsent)),
      );
      await expect(transact(deps, parts, failures)).rejects.toMatchObject({ code: 'slot-unavailable' });
    }
  });

  it('hands a failure function the item as it was', async () => {
    const marker = uniqueName('marker');
    await transact(deps, [part('marker', putItem(deps, { ...keyOf(marker), hold_hash: 'h1' }))]);
    const error = await transact(deps, [part('marker', putItem(deps, { ...keyOf(marker), hold_hash: 'h2' }, itemAbsent))], {
      marker: (old) => new DomainError('hold-conflict', `Holding ${String(old?.hold_hash)}`),
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'hold-conflict', message: 'Holding h1' });
  });

  it('names what failed when no failure applies, so a caller can tell parts apart', async () => {
    const gone = uniqueName('gone');
    const error = (await transact(deps, [
      part('update', updateItem(deps, keyOf(gone), { set: { n: 1 } }, itemExists)),
      part('check', checkItem(deps, keyOf(uniqueName('x')), itemAbsent)),
    ]).catch((e: unknown) => e)) as TransactionFailed;
    expect(error).toBeInstanceOf(TransactionFailed);
    expect(error.has('update')).toBe(true);
    expect(error.has('check')).toBe(false);
  });

  it('refuses two parts of one name, and a failure for a part that is not there', async () => {
    const k = keyOf(uniqueName('dup'));
    await expect(transact(deps, [part('x', putItem(deps, { ...k })), part('x', deleteItem(deps, keyOf(uniqueName('y'))))])).rejects.toThrow(/named twice/);
    await expect(transact(deps, [part('x', putItem(deps, { ...k }))], { y: new DomainError('not-found', 'n') })).rejects.toThrow(/not a part/);
    expect(await read(k.pk.slice(5))).toBeUndefined();
  });
});

describe('transact: another transaction in flight', () => {
  /** The first `times` transactions meet another in flight on their first item. */
  const meetingOthers = (times: number) => {
    const sent = { transactions: 0 };
    const busy = withFaults(deps, {
      before: (command) => {
        if (command.constructor.name === 'TransactWriteCommand' && sent.transactions++ < times) throw cancelledFor(command.input.TransactItems, 0);
      },
    });
    return { deps: busy, sent };
  };

  it('sends the same transaction again, and it lands', async () => {
    const name = uniqueName('busy');
    const { deps: busy, sent } = meetingOthers(2);
    await transact(busy, [
      part('item', putItem(deps, { ...keyOf(name), n: 1 }, itemAbsent)),
      part('other', putItem(deps, { ...keyOf(uniqueName('o')), n: 1 })),
    ]);
    expect(sent.transactions).toBe(3);
    expect((await read(name))?.n).toBe(1);
  });

  it('gives up after five tries, naming the part that met the other', async () => {
    const name = uniqueName('always-busy');
    const { deps: busy, sent } = meetingOthers(99);
    const error = (await transact(busy, [part('item', putItem(deps, { ...keyOf(name), n: 1 }, itemAbsent))]).catch((e: unknown) => e)) as TransactionFailed;
    expect(error).toBeInstanceOf(TransactionFailed);
    expect(error.conflicted).toEqual(['item']);
    expect(sent.transactions).toBe(5);
    expect(await read(name)).toBeUndefined();
  });

  it('does not send again a transaction whose condition failed', async () => {
    const name = uniqueName('taken');
    await transact(deps, [part('item', putItem(deps, { ...keyOf(name), n: 1 }))]);
    let sent = 0;
    const counted = withFaults(deps, { before: () => void sent++ });
    await expect(transact(counted, [part('item', putItem(deps, { ...keyOf(name), n: 2 }, itemAbsent))])).rejects.toThrow(TransactionFailed);
    expect(sent).toBe(1);
  });
});
