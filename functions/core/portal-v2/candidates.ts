import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { clientKeys } from '../access/clients.js';
import type { FamilyId } from '../platform/families.js';
import { nextId, padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { formatWithOffset } from '../platform/time.js';

/** The candidates an agency asks references about (portal v2). */
const FAMILY = 'portal-v2' as const satisfies FamilyId;

export interface CandidateItem {
  id: number;
  client_id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  created_at: string;
}

const PREFIX = TABLE_KEYS.client.sk.candidate;
export const candidateKeys = {
  candidate: (clientId: string, id: number) => ({ pk: clientKeys.partition(clientId), sk: key(PREFIX, padId(id)) }),
  prefix: PREFIX,
};

export const candidateName = (c: Pick<CandidateItem, 'first_name' | 'last_name'>) => `${c.first_name} ${c.last_name}`;

export const toCandidateView = (c: CandidateItem, timeZone: string) => ({
  id: c.id,
  first_name: c.first_name,
  last_name: c.last_name,
  name: candidateName(c),
  email: c.email,
  phone: c.phone,
  created_at: formatWithOffset(c.created_at, timeZone),
});

export async function createCandidate(deps: Deps, clientId: string, input: { first_name: string; last_name: string; email: string; phone?: string }) {
  const id = await nextId(deps, FAMILY, 'candidate');
  const item: CandidateItem = { id, client_id: clientId, ...input, phone: input.phone ?? null, created_at: deps.clock().toISOString() };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...candidateKeys.candidate(clientId, id), entity: 'candidate', ...item },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return toCandidateView(item, deps.config.serviceTimeZone);
}

export async function getCandidateItem(deps: Deps, clientId: string, id: number): Promise<CandidateItem | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: candidateKeys.candidate(clientId, id), ConsistentRead: true }));
  return Item as CandidateItem | undefined;
}

export async function getCandidate(deps: Deps, clientId: string, id: number) {
  const item = await getCandidateItem(deps, clientId, id);
  if (!item) throw new DomainError('not-found', `No candidate ${id}`);
  return toCandidateView(item, deps.config.serviceTimeZone);
}

export const listCandidates = (deps: Deps, clientId: string, page: { limit: number; cursor?: string }) =>
  queryPage(deps, { pk: clientKeys.partition(clientId), prefix: candidateKeys.prefix, ...page }, (c) =>
    toCandidateView(c as unknown as CandidateItem, deps.config.serviceTimeZone),
  );
