import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../access/clients.js';
import { formatMoney } from '../commerce/charges.js';
import { walletKeys } from '../commerce/wallets.js';
import { queryAll } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { part, updateItem, type Part } from '../platform/transact.js';
import { loadCatalogue, PRACTICAL_FAMILY } from './catalogue.js';
import { inviteKeys } from '../bookings/invite-keys.js';
import type { InviteItem, NewInvite } from './invites.js';

/**
 * An invite paid by `credits` or `balance` is refused (insufficient-credits /
 * insufficient-balance) when the wallet it draws on does not cover the open
 * invites that draw on it plus this one: an agency
 * cannot hand out invites it could not pay for. Open: not used and not
 * expired by the clock. The part it returns keeps the count true in the
 * invite's transaction: the wallet still covers it, and no other invite was
 * counted against it meanwhile (its `invite_seq`, moved by each such invite).
 */
export async function inviteFundsPart(deps: Deps, clientId: string, input: Pick<NewInvite, 'course_id' | 'pay_option'>): Promise<Part[]> {
  if (input.pay_option !== 'credits' && input.pay_option !== 'balance') return [];
  const now = deps.clock().toISOString();
  const key = input.pay_option === 'credits' ? walletKeys.credits(clientId, PRACTICAL_FAMILY, input.course_id) : walletKeys.money(clientId, PRACTICAL_FAMILY);
  // The wallet (and its invite_seq) first, the open invites after: an invite committed in between has moved the
  // seq, so the condition below fails and the count is taken again; read side by side, it could be missed by both.
  const { Item: wallet } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: key, ConsistentRead: true }));
  const [open, { courses }] = await Promise.all([
    queryAll(deps, {
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression: '#status IN (:queued, :sent, :opened) AND expires_at > :now AND pay_option = :option',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': clientKeys.partition(clientId),
        ':prefix': inviteKeys.prefix(PRACTICAL_FAMILY),
        ':queued': 'queued',
        ':sent': 'sent',
        ':opened': 'opened',
        ':now': now,
        ':option': input.pay_option,
      },
      ConsistentRead: true,
    }) as Promise<unknown[]> as Promise<InviteItem[]>,
    loadCatalogue(deps),
  ]);
  const balance = Number(wallet?.balance ?? 0);
  const seq = Number(wallet?.invite_seq ?? 0);
  const course = courses.find((c) => c.id === input.course_id)!;
  let need: number;
  if (input.pay_option === 'credits') {
    const committed = open.filter((i) => i.course.id === input.course_id).length;
    need = committed + 1;
    if (balance < need) {
      throw new DomainError(
        'insufficient-credits',
        `${balance} ${course.name} credits left, and ${committed} open invites already draw on them: top up, or wait for invites to be used or expire`,
        { credits: balance, open_invites: committed },
      );
    }
  } else {
    const priceOf = (id: number) => courses.find((c) => c.id === id)?.price.amount ?? 0;
    const committed = open.reduce((sum, i) => sum + priceOf(i.course.id), 0);
    need = committed + course.price.amount;
    if (balance < need) {
      throw new DomainError(
        'insufficient-balance',
        `The balance is ${formatMoney({ ...course.price, amount: balance })}; open invites already draw ${formatMoney({ ...course.price, amount: committed })} on it and this one costs ${formatMoney(course.price)}`,
        {
          balance: { amount: balance, currency: course.price.currency },
          price: course.price,
          open_invites: open.length,
        },
      );
    }
  }
  const unchanged = seq === 0 ? 'attribute_not_exists(invite_seq)' : 'invite_seq = :seq';
  return [
    part(
      'funds',
      updateItem(
        deps,
        key,
        { add: { invite_seq: 1 } },
        { expression: `balance >= :need AND ${unchanged}`, values: { ':need': need, ...(seq === 0 ? {} : { ':seq': seq }) } },
      ),
    ),
  ];
}
