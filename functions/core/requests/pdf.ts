import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import type { RequestKind, StoredItem, StoredRequest } from './kind.js';
import { findItem } from './store.js';

/** The PDF of an item, rendered on request by the kind's layout (the documents module's writer). */

export interface PdfLayout<R, I> {
  /** Has the item anything to show yet? */
  ready(item: I): boolean;
  notReady(itemId: number): string;
  render(deps: Deps, request: R, item: I): Promise<Buffer>;
}

/** The PDF of one of the caller's items; not-found until it is ready, and for another client's. */
export async function itemPdf<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  layout: PdfLayout<R, I>,
  clientId: string,
  itemId: number,
): Promise<Buffer> {
  const { request, item } = await findItem(deps, kind, clientId, itemId);
  if (!layout.ready(item)) throw new DomainError('not-found', layout.notReady(itemId));
  return layout.render(deps, request, item);
}
