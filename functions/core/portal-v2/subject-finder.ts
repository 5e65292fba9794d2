import type { StoredItem, SubjectFinder } from '../data-rights/adapter.js';
import * as TABLE_KEYS from '../platform/table-keys.js';

/**
 * Where a portal v2 candidate's items are and what of them stops an erasure
 * (data-subject.ts has the rest of the adapter). Its own module, free of the
 * requests engine, so an erasure's start does not carry every request kind.
 */

const CLIENT = TABLE_KEYS.client.sk;
const is = (prefix: string) => (item: StoredItem) => item.sk.startsWith(prefix);
export const isCandidate = is(CLIENT.candidate);
export const isReferenceRequest = is(CLIENT.referenceRequest);
export const isReference = is(CLIENT.reference);
export const isGroupRequest = is(CLIENT.groupRequest);
export const isGroupItem = is(CLIENT.groupItem);

export const portalV2SubjectFinder: SubjectFinder = {
  family: 'portal-v2',
  prefixes: [CLIENT.candidate, CLIENT.referenceRequest, CLIENT.groupRequest],
  active: (item) =>
    isGroupItem(item) && item.status === 'booked' && item.booking_id
      ? {
          type: 'booking',
          id: Number(item.booking_id),
          reason: `Booked through ${String(item.kind)} request ${String(item.request_id)}; cancel or complete the booking first`,
        }
      : undefined,
  linked: {
    prefixes: [CLIENT.reference, CLIENT.groupItem],
    belongs: (item, found) =>
      isReference(item)
        ? found.some((r) => isReferenceRequest(r) && r.id === item.reference_request_id)
        : found.some((r) => isGroupRequest(r) && r.kind === item.kind && r.id === item.request_id),
    erase: true,
  },
};
