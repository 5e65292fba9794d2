import { abandonIdempotent, beginIdempotent, completeIdempotent } from '../core/platform/idempotency.js';
import { canonicalJson } from '../core/platform/canonical-json.js';
import { sha256Hex } from '../core/platform/secrets.js';
import type { Idempotency } from './http-handler.js';
import { validationProblem } from './problems.js';

/**
 * `Idempotency-Key` for an operation marked `idempotent` (the rules are in
 * core/platform/idempotency.ts): its handler passes this to `httpHandler`,
 * so the handlers of every other operation do not carry it.
 */
export const idempotency: Idempotency = async ({ deps, event, clientId, family }, run) => {
  const key = event.headers?.['idempotency-key'];
  if (key === undefined) return run();
  if (key.length < 1 || key.length > 255) throw validationProblem([{ header: 'Idempotency-Key', detail: 'Must be 1 to 255 characters' }]);
  // The query is part of the request (`?dry_run=true` is another import): a repeat with another query is refused, never replayed.
  const query = event.queryStringParameters && Object.keys(event.queryStringParameters).length ? `?${canonicalJson(event.queryStringParameters)}` : '';
  const requestHash = sha256Hex(`${event.requestContext.http.method} ${event.rawPath}${query}\n${canonicalJson(event.body)}`);
  const begun = await beginIdempotent(deps, clientId, family, key, requestHash);
  if (begun.kind === 'replay') return { ...begun.response, headers: { ...begun.response.headers, 'idempotent-replayed': 'true' } };
  let result;
  try {
    result = await run();
  } catch (err) {
    // Only what was created is kept; a refusal created nothing, so a retry may try again.
    await abandonIdempotent(deps, clientId, family, key);
    throw err;
  }
  await completeIdempotent(deps, clientId, family, key, {
    statusCode: result.statusCode ?? 200,
    headers: (result.headers ?? {}) as Record<string, string>,
    body: result.body,
  });
  return result;
};
