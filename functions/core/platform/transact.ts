import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { cancellationReasons } from './conditions.js';
import { conflictPause } from './sdk.js';
import type { ItemKey } from './db.js';
import type { Deps } from './deps.js';
import type { DomainError } from './errors.js';

/**
 * Transactions of named parts. Each part of a `TransactWriteItems` has a name
 * ("unit", "marker", "wallet"), and a failed condition is turned into its
 * domain error by the name of the part that failed, never by its position, so
 * adding a part cannot silently change what a failure means.
 */

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** A condition with the attribute names and values it uses: stated once, next to its entity. */
export interface Condition {
  expression: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

export interface Part {
  readonly name: string;
  readonly item: TransactItem;
}

export const part = (name: string, item: TransactItem): Part => ({ name, item });

/** The item does not exist yet. */
export const itemAbsent: Condition = { expression: 'attribute_not_exists(pk)' };
/** The item exists. */
export const itemExists: Condition = { expression: 'attribute_exists(pk)' };

/** Both conditions. A placeholder bound to two different values is a programming error. */
export function allOf(...conditions: Condition[]): Condition {
  return conditions.reduce((a, b) => ({
    expression: `(${a.expression}) AND (${b.expression})`,
    names: merged(a.names, b.names),
    values: merged(a.values, b.values),
  }));
}

function merged<T>(a: Record<string, T> | undefined, b: Record<string, T> | undefined): Record<string, T> | undefined {
  if (!a || !b) return a ?? b;
  for (const [k, v] of Object.entries(b)) {
    if (k in a && a[k] !== v) throw new Error(`Placeholder ${k} is bound twice, to ${String(a[k])} and ${String(v)}`);
  }
  return { ...a, ...b };
}

/** The expression fields of a write: its condition plus any update placeholders. */
function expressionFields(when: Condition | undefined, update?: Condition) {
  const names = merged(when?.names, update?.names);
  const values = merged(when?.values, update?.values);
  return {
    ...(when ? { ConditionExpression: when.expression, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    ...(names && Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ...(values && Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}

export interface Changes {
  /** Attributes to set; an `undefined` value removes the attribute. */
  set?: Record<string, unknown>;
  /** Attributes to remove. */
  remove?: string[];
  /** Numbers to add to (counters). */
  add?: Record<string, number>;
}

/**
 * The one way to write a partial update: `SET`, `REMOVE` and `ADD` clauses
 * from plain fields, with placeholders that cannot collide with a condition's
 * (`#f0`, `:v0`, ...).
 */
export function setFrom(changes: Changes): Condition {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const sets: string[] = [];
  const removes: string[] = [];
  const adds: string[] = [];
  let i = 0;
  const nameOf = (field: string) => {
    const placeholder = `#f${i}`;
    names[placeholder] = field;
    return placeholder;
  };
  for (const [field, value] of Object.entries(changes.set ?? {})) {
    if (value === undefined) removes.push(nameOf(field));
    else {
      sets.push(`${nameOf(field)} = :v${i}`);
      values[`:v${i}`] = value;
    }
    i++;
  }
  for (const field of changes.remove ?? []) {
    removes.push(nameOf(field));
    i++;
  }
  for (const [field, by] of Object.entries(changes.add ?? {})) {
    adds.push(`${nameOf(field)} :v${i}`);
    values[`:v${i}`] = by;
    i++;
  }
  const clauses = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
  ];
  const expression = clauses.filter(Boolean).join(' ');
  if (!expression) throw new Error('setFrom: nothing to change');
  return { expression, names, values };
}

export const putItem = (deps: Deps, item: Record<string, unknown>, when?: Condition): TransactItem => ({
  Put: { TableName: deps.table, Item: item, ...expressionFields(when) },
});

export function updateItem(deps: Deps, key: ItemKey, changes: Changes, when?: Condition): TransactItem {
  const update = setFrom(changes);
  return { Update: { TableName: deps.table, Key: key, UpdateExpression: update.expression, ...expressionFields(when, update) } };
}

export const deleteItem = (deps: Deps, key: ItemKey, when?: Condition): TransactItem => ({
  Delete: { TableName: deps.table, Key: key, ...expressionFields(when) },
});

export const checkItem = (deps: Deps, key: ItemKey, when: Condition): TransactItem => ({
  ConditionCheck: { TableName: deps.table, Key: key, ...expressionFields(when), ConditionExpression: when.expression },
});

/**
 * A transaction was cancelled and no part's failure had a domain meaning:
 * another writer got there first. `retryOnConflict` runs the work again.
 */
export class TransactionFailed extends Error {
  constructor(
    /** Parts whose condition failed, with the item as it was (if any). */
    readonly failed: ReadonlyMap<string, Record<string, unknown> | undefined>,
    /** Parts that clashed with another transaction in flight. */
    readonly conflicted: readonly string[],
  ) {
    super(
      `Transaction cancelled: ${
        [...failed.keys()]
          .map((n) => `${n} failed`)
          .concat(conflicted.map((n) => `${n} conflicted`))
          .join(', ') || 'no reason given'
      }`,
    );
    this.name = 'TransactionFailed';
  }

  /** Did this part's condition fail? */
  has(name: string): boolean {
    return this.failed.has(name);
  }
}

/** What a failed part means: an error, or a function of the item as it was (undefined: no domain meaning). */
export type Failure = DomainError | ((old: Record<string, unknown> | undefined) => DomainError | undefined | Promise<DomainError | undefined>);

/** The failures that name a part of this transaction, for callers whose parts vary from write to write. */
export const failuresAmong = (failures: Readonly<Record<string, Failure>>, parts: readonly Part[]): Record<string, Failure> =>
  Object.fromEntries(Object.entries(failures).filter(([name]) => parts.some((p) => p.name === name)));

/**
 * Writes the parts in one transaction. When a condition fails, the first
 * failed part (in part order) whose name `failures` explains decides the
 * error; otherwise a `TransactionFailed` names what failed. A transaction
 * stopped only by others in flight on its items is sent again (up to
 * CONFLICT_TRIES), as nothing of it was written.
 */
export async function transact(deps: Deps, parts: readonly Part[], failures: Readonly<Record<string, Failure>> = {}): Promise<void> {
  const names = parts.map((p) => p.name);
  const duplicate = names.find((n, i) => names.indexOf(n) !== i);
  if (duplicate) throw new Error(`Transaction part "${duplicate}" is named twice`);
  for (const name of Object.keys(failures)) {
    if (!names.includes(name)) throw new Error(`Failure given for "${name}", which is not a part of this transaction`);
  }
  if (parts.length === 0) return; // nothing to write (a refund that keeps what was paid)
  if (parts.length > 100) throw new Error(`A transaction has at most 100 parts, not ${parts.length}`);
  for (let attempt = 1; ; attempt++) {
    try {
      await deps.db.send(new TransactWriteCommand({ TransactItems: parts.map((p) => p.item) }));
      return;
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (!reasons) throw err;
      const failed = new Map<string, Record<string, unknown> | undefined>();
      const conflicted: string[] = [];
      reasons.forEach((reason, i) => {
        if (reason.code === 'ConditionalCheckFailed') failed.set(names[i]!, reason.item);
        else if (reason.code === 'TransactionConflict') conflicted.push(names[i]!);
      });
      // Only another transaction in flight on an item stopped it (real DynamoDB; the emulator serialises): nothing was
      // written, so the same transaction goes again, and its conditions then decide against what that one wrote.
      if (failed.size === 0 && conflicted.length > 0 && attempt < CONFLICT_TRIES) {
        await conflictPause(attempt);
        continue;
      }
      return await explain(failed, conflicted, failures);
    }
  }
}

/** A cancelled transaction's error: the first failed part's domain error, or TransactionFailed naming them. */
async function explain(
  failed: Map<string, Record<string, unknown> | undefined>,
  conflicted: string[],
  failures: Readonly<Record<string, Failure>>,
): Promise<never> {
  for (const [name, old] of failed) {
    const failure = failures[name];
    if (!failure) continue;
    const error = typeof failure === 'function' ? await failure(old) : failure;
    if (error) throw error;
  }
  throw new TransactionFailed(failed, conflicted);
}

/** Tries of one transaction that only meets others in flight. */
const CONFLICT_TRIES = 5;
