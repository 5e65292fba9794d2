import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { sha256Hex } from '../platform/secrets.js';
import { part, putItem, type Part } from '../platform/transact.js';
import type { ActorMode } from '../requests/group.js';

/**
 * Links to a request group's public pages. The link item is keyed by the
 * token's SHA-256, so a read of the table does not
 * yield a working link; the page decides from the request's state whether
 * the link still works.
 */

export interface RequestLinkTarget {
  client_id: string;
  kind: string;
  request_id: number;
  /** Whose page it is: the candidate's, or a third party's (by mode and address); it shows all their items. */
  actor: ActorMode;
  email?: string;
}

const LINK = TABLE_KEYS.requestLink;
export const requestLinkKey = (token: string) => ({ pk: key(LINK.pk, sha256Hex(token)), sk: LINK.sk.link });

export const requestLinkPart = (deps: Deps, token: string, target: RequestLinkTarget, name = 'link'): Part =>
  part(name, putItem(deps, { ...requestLinkKey(token), entity: 'request-link', ...target }));

export async function followRequestLink(deps: Deps, token: string): Promise<RequestLinkTarget> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: requestLinkKey(token), ConsistentRead: true }));
  if (!Item) throw new DomainError('not-found', 'This link is not valid. Check that you copied all of it.');
  return Item as unknown as RequestLinkTarget;
}
