import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../platform/deps.js';
import { checkItem, part, transact, TransactionFailed } from '../platform/transact.js';
import { changeLogParts } from './change-log.js';
import type { BookingRecord } from './kind.js';
import { bookingKeys } from './records.js';
import { scheduleParts } from './schedule.js';

/**
 * Gives bookings made before the change log and the schedule pointers
 * (change-log.ts, schedule.ts) their entries, so the Services feed and the lists
 * by time see them. Each is written only while the booking is as read (its
 * `updated_at` unchanged): a booking changed meanwhile got its entries from
 * that change. Safe to run again and while the API serves.
 */
export async function backfillBookingLogs(deps: Deps): Promise<number> {
  let written = 0;
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(
      new ScanCommand({
        TableName: deps.table,
        FilterExpression: 'entity = :booking',
        ExpressionAttributeValues: { ':booking': 'booking' },
        ExclusiveStartKey,
        ConsistentRead: true,
      }),
    );
    for (const booking of (page.Items ?? []) as BookingRecord[]) {
      const unchanged = { expression: 'updated_at = :seen', values: { ':seen': booking.updated_at } };
      try {
        await transact(deps, [
          part('booking', checkItem(deps, bookingKeys.booking(booking.client_id, booking.family, booking.id), unchanged)),
          ...changeLogParts(deps, booking),
          ...scheduleParts(deps, booking),
        ]);
        written++;
      } catch (err) {
        if (!(err instanceof TransactionFailed)) throw err;
      }
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return written;
}
