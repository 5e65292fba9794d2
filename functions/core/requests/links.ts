import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { randomToken } from '../platform/secrets.js';
import { part, putItem, type Part } from '../platform/transact.js';
import type { LinkKind } from './kind.js';

/**
 * Links to public pages, e-mailed to a request's recipients: an unguessable
 * token whose item points at the request (and the item) it opens. The page
 * decides whether the link still works from the request's state.
 */

export const newLinkToken = (): string => randomToken(24);

/** What a link token points at, under the kind's stored field names. */
export interface LinkTarget {
  client_id: string;
  [field: string]: unknown;
}

export function linkTokenPart(deps: Deps, link: LinkKind, token: string, target: LinkTarget, name = `link ${link.entity}`): Part {
  return part(name, putItem(deps, { ...link.key(token), entity: link.entity, ...target }));
}

/** The target of a link; a token that was never issued is not-found. */
export async function followLink(deps: Deps, link: LinkKind, token: string): Promise<LinkTarget> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: link.key(token), ConsistentRead: true }));
  if (!Item) throw new DomainError('not-found', 'This link is not valid. Check that you copied all of it.');
  return Item as LinkTarget;
}
