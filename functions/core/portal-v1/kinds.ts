/**
 * What portal v1 offers: three of
 * portal v2's request groups, by path segment, and the events of those kinds.
 * SDK-free: the route table and schemas read it.
 */

export const V1_GROUPS = { training: 'training-requests', occupational_health: 'occupational-health-requests', certificate: 'certificate-requests' } as const;
export const V1_REQUEST_KINDS = Object.keys(V1_GROUPS) as (keyof typeof V1_GROUPS)[];

const ITEM_EVENTS = ['submitted', 'accepted', 'rejected', 'confirmed', 'denied'].map((e) => `request_item.${e}`);
const REQUEST_EVENTS = (kind: string) => ['created', 'submitted', 'completed', 'cancelled', 'expired'].map((e) => `${kind}_request.${e}`);

/** The events a v1 subscription may take: the three kinds' request events and their items' events. */
export const V1_EVENT_KINDS = [...V1_REQUEST_KINDS.flatMap(REQUEST_EVENTS), ...ITEM_EVENTS] as [string, ...string[]];
