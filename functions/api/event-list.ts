import { EVENT_CATALOGUE } from '../core/events/catalogue.js';
import { FAMILIES, FAMILY_IDS } from '../core/platform/families.js';

/** The webhooks guide's list of event kinds (docs/webhooks.md), generated from the event catalogue (a test keeps the README in step). */
export function eventListMarkdown(): string {
  const rows = FAMILY_IDS.flatMap((family) =>
    Object.entries(EVENT_CATALOGUE[family]).map(([kind, meaning]) => `| ${FAMILIES[family].title} | \`${kind}\` | ${meaning} |`),
  );
  return ['| family | event | when |', '|---|---|---|', ...rows].join('\n');
}
