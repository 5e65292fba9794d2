import * as v from 'valibot';
import type { FamilyId } from '../../core/platform/families.js';
import { eventKindsOf } from '../../core/events/kinds.js';
import { DEFAULT_TIMEOUT_SECONDS } from '../../core/webhooks/delivery-timeout.js';
import { name, PageQuery, text, oneOf } from './fields.js';

/** Bodies and queries of the webhook endpoint operations, per family (each family has its own event kinds). */
export function webhookSchemas(family: FamilyId) {
  const kinds = eventKindsOf(family) as string[] as [string, ...string[]];
  const events = v.pipe(v.array(oneOf(kinds), 'Required, as an array of event kinds'), v.minLength(1, 'Subscribe to at least one event kind'));
  const url = v.pipe(text(), v.trim(), v.maxLength(2048, 'At most 2048 characters'), v.url('Not a valid URL'));
  const timeout = v.pipe(
    v.number('A whole number of seconds'),
    v.integer('A whole number of seconds'),
    v.minValue(1, 'At least 1'),
    v.maxValue(30, 'At most 30'),
  );
  return {
    create: v.object({ name: name(), url, events, timeout_seconds: v.optional(timeout, DEFAULT_TIMEOUT_SECONDS) }),
    update: v.object({
      events,
      is_active: v.boolean('Required, as true or false'),
      name: v.optional(name()),
      url: v.optional(url),
      timeout_seconds: v.optional(timeout),
    }),
    logs: PageQuery,
    replay: v.object({
      since: v.pipe(text(), v.isoTimestamp('An ISO 8601 timestamp, for example 2026-11-20T09:00:00Z')),
      all: v.optional(v.boolean('true or false'), false),
    }),
  };
}
