import { readFileSync } from 'node:fs';
import { eventListMarkdown } from '../../functions/api/event-list.js';
import { buildOpenApi } from '../../functions/api/openapi.js';
import { webhookSchemas } from '../../functions/api/schemas/webhooks.js';
import * as v from 'valibot';
import { EVENT_CATALOGUE } from '../../functions/core/events/catalogue.js';
import { EVENT_KINDS, eventKindsOf } from '../../functions/core/events/kinds.js';
import { FAMILY_IDS } from '../../functions/core/platform/families.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { eventPut } from '../../functions/core/events/outbox.js';

/** The event kinds are one list: schemas, documents and the webhooks guide come from it, and the catalogue says what each means. */

it('the catalogue describes exactly the kinds each family delivers, in their order', () => {
  for (const family of FAMILY_IDS) {
    expect(Object.keys(EVENT_CATALOGUE[family])).toEqual([...EVENT_KINDS[family]]);
    for (const meaning of Object.values(EVENT_CATALOGUE[family])) expect(meaning).toMatch(/^[A-Z`].{10,}\.$/);
  }
});

it('the webhooks guide lists exactly the catalogue', () => {
  const readme = readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8');
  const listed = /<!-- event-kinds:start -->\n([\s\S]*?)\n<!-- event-kinds:end -->/.exec(readme)?.[1];
  // On failure, paste eventListMarkdown() between the markers.
  expect(listed).toBe(eventListMarkdown());
});

it("a family's webhook endpoints subscribe only to that family's kinds", () => {
  const create = (family: 'clinical-interview' | 'portal-v2', events: string[]) =>
    v.safeParse(webhookSchemas(family).create, { name: 'x', url: 'https://example.com/h', events }).success;
  expect(create('clinical-interview', ['booking.created', 'webhook.test'])).toBe(true);
  expect(create('clinical-interview', ['reference.completed'])).toBe(false);
  expect(create('portal-v2', ['reference.completed'])).toBe(true);
  expect(create('portal-v2', ['booking.created'])).toBe(false);
});

it('each OpenAPI document describes the webhooks of its family', () => {
  for (const family of ['clinical-interview', 'portal-v2'] as const) {
    const doc = buildOpenApi(family, 'https://api.example.com');
    expect(Object.keys(doc.webhooks).sort()).toEqual([...eventKindsOf(family)].sort());
    expect(doc.webhooks['webhook.test'].post.description).toBe(EVENT_CATALOGUE[family]['webhook.test']);
  }
});

it('an event of the wrong family does not compile', () => {
  const deps = { table: 't', clock: () => new Date('2026-11-22T10:00:00Z') } as unknown as Deps;
  const put = eventPut(deps, { family: 'clinical-interview', type: 'booking.created', client_id: 'c', data: {} });
  expect(JSON.parse(put.Put.Item.payload)).toMatchObject({ type: 'booking.created', family: 'clinical-interview' });
  // tsc (run by `npm test`) fails if either line below compiles without error.
  // @ts-expect-error booking events belong to the clinical interview family
  eventPut(deps, { family: 'portal-v2', type: 'booking.created', client_id: 'c', data: {} });
  // @ts-expect-error not a kind of any family
  eventPut(deps, { family: 'clinical-interview', type: 'booking.teleported', client_id: 'c', data: {} });
});
