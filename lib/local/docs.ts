import { contractOf } from '../../functions/api/contracts/index.js';
import { FAMILIES } from '../../functions/core/platform/families.js';
import type { Route } from '../routes.js';

/** A plain index of the operations the local stack serves, straight from the route table. */
export function docsPage(routes: Route[]): string {
  const escape = (s: string) => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  const sections = Object.entries(FAMILIES).map(([id, family]) => {
    const rows = routes
      .filter((r) => r.family === id)
      .map(
        (r) =>
          `<tr><td><code>${r.method}</code></td><td><code>${escape(family.prefix + r.path)}</code></td>` +
          `<td>${escape(contractOf(r).summary)}</td><td>${r.auth === 'bearer' ? 'Bearer token' : 'none'}</td><td>${r.contract}</td></tr>`,
      )
      .join('\n');
    return `<h2>${escape(family.title)} <small><code>${family.prefix}</code></small></h2>
<p><a href="${family.prefix}/docs">Interactive documentation</a> · <a href="${family.prefix}/openapi.json">OpenAPI document</a></p>
<table><thead><tr><th>Method</th><th>Path</th><th>Operation</th><th>Auth</th><th>Contract</th></tr></thead>
<tbody>${rows}</tbody></table>`;
  });
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Agency API: operations</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.3rem;text-align:left}</style>
</head><body><h1>Agency API: operations</h1>
<p>Every operation of the route table (<code>functions/api/routes/</code>). Errors are <code>application/problem+json</code> (RFC 9457).</p>
${sections.join('\n')}
</body></html>`;
}
