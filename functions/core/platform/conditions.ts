import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';

/** Helpers that turn DynamoDB's failed conditions into something a rule can read. */

export function isConditionalCheckFailed(err: unknown): boolean {
  return (err as { name?: string })?.name === 'ConditionalCheckFailedException';
}

/**
 * A single write refused because a transaction on its item was in flight
 * (real DynamoDB; the emulator serialises instead): over in milliseconds,
 * so worth trying again.
 */
export function isTransactionConflict(err: unknown): boolean {
  return (err as { name?: string })?.name === 'TransactionConflictException';
}

export interface CancellationReason {
  code: string | undefined;
  /** The item as it was, when the write asked for ALL_OLD on failure. */
  item?: Record<string, unknown>;
}

/**
 * The per-item reasons of a cancelled transaction, in the order of its items,
 * or undefined when the error is something else.
 */
export function cancellationReasons(err: unknown): CancellationReason[] | undefined {
  const e = err as { name?: string; CancellationReasons?: { Code?: string; Item?: Record<string, AttributeValue> }[] };
  if (e?.name !== 'TransactionCanceledException' || !e.CancellationReasons) return undefined;
  return e.CancellationReasons.map((r) => ({
    code: r.Code,
    item: r.Item ? unmarshall(r.Item) : undefined,
  }));
}

/** The item as it was when a single conditional write asked for ALL_OLD on failure (marshalled in the error). */
export function failedItem(err: unknown): Record<string, unknown> | undefined {
  const item = (err as { Item?: Record<string, AttributeValue> })?.Item;
  return item ? unmarshall(item) : undefined;
}
