import { getClient } from '../access/clients.js';
import { emailPut } from '../events/outbox.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { part, transact, TransactionFailed, type Condition } from '../platform/transact.js';
import type { RequestKind, StoredItem, StoredRequest } from './kind.js';
import { reminderDue } from './status.js';
import { itemChange, requireOpen, requireRequest } from './store.js';

/** The item has not been reminded since this change read it: a concurrent reminder run must not remind twice. */
export const lastReminderIs = (seen: string | null): Condition =>
  seen
    ? { expression: '#last = :seen', names: { '#last': 'last_reminder_sent_at' }, values: { ':seen': seen } }
    : { expression: 'attribute_not_exists(#last) OR #last = :null', names: { '#last': 'last_reminder_sent_at' }, values: { ':null': null } };

/** Reminds the actors who have not answered, at most once per actor per 24 hours. */
export async function sendReminders<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  clientId: string,
  id: number,
): Promise<{ request: V; reminders_sent: number }> {
  const client = await getClient(deps, clientId);
  const { request, items } = await requireRequest(deps, kind, clientId, id);
  const now = deps.clock();
  requireOpen(kind, request, now);
  const at = now.toISOString();
  let sent = 0;
  for (const item of items.filter((i) => reminderDue(i, kind.remindable, now))) {
    const reminded = { reminder_count: item.reminder_count + 1, last_reminder_sent_at: at, updated_at: at } as Partial<I>;
    try {
      await transact(deps, [
        itemChange(deps, kind, request, item, reminded, lastReminderIs(item.last_reminder_sent_at)),
        part('email', emailPut(deps, kind.reminderEmail({ request, item: { ...item, ...reminded }, agency: client?.name ?? '' }))),
      ]);
      sent++;
    } catch (err) {
      // Another run reminded this actor first.
      if (!(err instanceof TransactionFailed && err.has(`item ${item.id}`))) throw err;
    }
  }
  const loaded = await requireRequest(deps, kind, clientId, id);
  return { request: kind.view(loaded.request, loaded.items, now), reminders_sent: sent };
}
