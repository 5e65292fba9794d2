import * as v from 'valibot';
import { V1_EVENT_KINDS } from '../../core/portal-v1/kinds.js';
import { name, text, oneOf, built } from './fields.js';

/** Portal v1's own bodies; its request bodies are portal v2's. */

export const V1Subscribe = /* @__PURE__ */ built(() =>
  v.object({
    url: v.pipe(text(), v.trim(), v.maxLength(2048, 'At most 2048 characters'), v.url('Not a valid URL')),
    events: v.optional(v.pipe(v.array(oneOf(V1_EVENT_KINDS), 'An array of event kinds'), v.minLength(1, 'Subscribe to at least one event kind'))),
    name: v.optional(name()),
  }),
);
