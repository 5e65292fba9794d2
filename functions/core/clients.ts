import { GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed } from './conditions.js';
import { queryAll, updateExisting } from './db.js';
import type { Deps } from './deps.js';
import { DomainError } from './errors.js';
import { nextId } from './ids.js';
import { GSI1_KEYS, key, TABLE_KEYS } from './key-registry.js';
import { DECOY_SECRET_HASH, hashSecret, randomBytesHex, randomToken, verifySecret } from './secrets.js';

/** Client accounts (agencies) and their credentials. */

export interface ClientAccount {
  clientId: string;
  name: string;
  invoiceEnabled: boolean;
  referenceRequestsEnabled: boolean;
  createdAt: string;
}

interface ClientItem {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  entity: 'client';
  client_id: string;
  name: string;
  secret_hash: string;
  invoice_enabled: boolean;
  reference_requests_enabled: boolean;
  created_at: string;
  secret_rotated_at?: string;
  number?: number;
}

const CLIENT = TABLE_KEYS.client;
const LISTING = GSI1_KEYS.clients;
export const clientKeys = {
  /** The client's partition: its account and everything it owns in every family (see the registry's sort keys). */
  partition: (clientId: string) => key(CLIENT.pk, clientId),
  item: (clientId: string) => ({ pk: key(CLIENT.pk, clientId), sk: CLIENT.sk.client }),
  /** Every client sits in one GSI partition, in creation order: an operator listing, not a hot path. */
  listing: (createdAt: string, clientId: string) => ({ gsi1pk: LISTING.pk, gsi1sk: key(LISTING.sk.listing, createdAt, clientId) }),
};

const fromItem = (item: ClientItem): ClientAccount => ({
  clientId: item.client_id,
  name: item.name,
  invoiceEnabled: item.invoice_enabled,
  referenceRequestsEnabled: item.reference_requests_enabled,
  createdAt: item.created_at,
});

export const newClientId = (): string => `cl_${randomBytesHex(10)}`;
export const newClientSecret = (): string => `cs_${randomToken(32)}`;

export interface NewClient {
  name: string;
  invoiceEnabled?: boolean;
  referenceRequestsEnabled?: boolean;
  /** Fixed credentials, for demo data only; otherwise both are generated. */
  clientId?: string;
  clientSecret?: string;
}

/** Creates a client; the secret is returned here once and stored only as a hash. */
export async function createClient(deps: Deps, input: NewClient): Promise<{ client: ClientAccount; clientSecret: string }> {
  const clientId = input.clientId ?? newClientId();
  const clientSecret = input.clientSecret ?? newClientSecret();
  const createdAt = deps.clock().toISOString();
  const item: ClientItem = {
    ...clientKeys.item(clientId),
    ...clientKeys.listing(createdAt, clientId),
    entity: 'client',
    client_id: clientId,
    name: input.name,
    secret_hash: await hashSecret(clientSecret),
    invoice_enabled: input.invoiceEnabled ?? false,
    reference_requests_enabled: input.referenceRequestsEnabled ?? true,
    created_at: createdAt,
  };
  try {
    await deps.db.send(
      new PutCommand({ TableName: deps.table, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }),
    );
  } catch (err) {
    if (isConditionalCheckFailed(err)) throw new DomainError('client-exists', `Client ${clientId} already exists`);
    throw err;
  }
  return { client: fromItem(item), clientSecret };
}

async function getClientItem(deps: Deps, clientId: string): Promise<ClientItem | undefined> {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: clientKeys.item(clientId), ConsistentRead: true }),
  );
  return Item as ClientItem | undefined;
}

export async function getClient(deps: Deps, clientId: string): Promise<ClientAccount | undefined> {
  const item = await getClientItem(deps, clientId);
  return item && fromItem(item);
}

export async function listClients(deps: Deps): Promise<ClientAccount[]> {
  const items = await queryAll(deps, {
    IndexName: 'gsi1',
    KeyConditionExpression: 'gsi1pk = :p',
    ExpressionAttributeValues: { ':p': LISTING.pk },
  });
  return (items as unknown as ClientItem[]).map(fromItem);
}

/** Replaces the client's secret; the old one stops working at once. Tokens already issued stay valid. */
export async function rotateClientSecret(deps: Deps, clientId: string): Promise<string> {
  const clientSecret = newClientSecret();
  await updateExisting(
    deps,
    {
      Key: clientKeys.item(clientId),
      UpdateExpression: 'SET secret_hash = :h, secret_rotated_at = :t',
      ExpressionAttributeValues: { ':h': await hashSecret(clientSecret), ':t': deps.clock().toISOString() },
    },
    `No client ${clientId}`,
  );
  return clientSecret;
}

/**
 * Checks a client id and secret. An unknown id and a wrong secret give the
 * same error after the same work, so neither reveals which clients exist.
 */
export async function verifyClientCredentials(deps: Deps, clientId: string, clientSecret: string): Promise<ClientAccount> {
  const item = await getClientItem(deps, clientId);
  const matches = await verifySecret(clientSecret, item?.secret_hash ?? DECOY_SECRET_HASH);
  if (!item || !matches) throw new DomainError('invalid-credentials', 'The client id or secret is not valid');
  return fromItem(item);
}

/** Turns invoice payments on or off for a client. */
export async function setInvoiceEnabled(deps: Deps, clientId: string, enabled: boolean): Promise<void> {
  await updateExisting(
    deps,
    { Key: clientKeys.item(clientId), UpdateExpression: 'SET invoice_enabled = :e', ExpressionAttributeValues: { ':e': enabled } },
    `No client ${clientId}`,
  );
}

/** The client's account number (requested_by on reference requests), given the first time it is needed. */
export async function clientNumber(deps: Deps, clientId: string): Promise<number> {
  const item = await getClientItem(deps, clientId);
  if (!item) throw new DomainError('not-found', `No client ${clientId}`);
  if (typeof item.number === 'number') return item.number;
  const number = await nextId(deps, 'platform', 'client');
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: clientKeys.item(clientId),
        UpdateExpression: 'SET #number = :n',
        ConditionExpression: 'attribute_not_exists(#number)',
        ExpressionAttributeNames: { '#number': 'number' },
        ExpressionAttributeValues: { ':n': number },
      }),
    );
    return number;
  } catch (err) {
    if (isConditionalCheckFailed(err)) return Number((await getClientItem(deps, clientId))!.number);
    throw err;
  }
}

/** Turns the reference request product on or off for a client (off: creating one is 403). */
export async function setReferenceRequestsEnabled(deps: Deps, clientId: string, enabled: boolean): Promise<void> {
  await updateExisting(
    deps,
    { Key: clientKeys.item(clientId), UpdateExpression: 'SET reference_requests_enabled = :e', ExpressionAttributeValues: { ':e': enabled } },
    `No client ${clientId}`,
  );
}
