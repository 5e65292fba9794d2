import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { isConditionalCheckFailed, isTransactionConflict } from '../platform/conditions.js';
import { queryAll } from '../platform/db.js';
import { conflictPause } from '../platform/sdk.js';
import { itemAbsent, part, putItem, setFrom, transact, TransactionFailed, updateItem, type Condition } from '../platform/transact.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { deprecationSchedule } from '../platform/deprecation.js';
import { FAMILIES, FAMILY_IDS, familySpec, type FamilyId, type FamilySpec } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import { DECOY_SECRET_HASH, hashSecret, randomBytesHex, randomToken, verifySecret } from '../platform/secrets.js';

/**
 * Client accounts (agencies) and their credentials. Every token carries the
 * client's grant generation at the time it was issued; rotating the secret or
 * disabling the client moves the generation on, which ends every grant of the
 * client at once, in one transaction (see tokens.ts). The account's other
 * settings (invoicing, products, its number): ./account-settings.ts.
 */

export interface ClientAccount {
  clientId: string;
  name: string;
  invoiceEnabled: boolean;
  referenceRequestsEnabled: boolean;
  /** The account includes registration monitoring (`ops registration-monitoring account enable`). */
  monitoringEnabled: boolean;
  /** Products beyond the defaults, by name (`occupational_health`: special-category data). */
  entitlements: string[];
  createdAt: string;
  /** Tokens issued under another generation are void. */
  grantGeneration: number;
  disabled: boolean;
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
  entitlements?: string[];
  created_at: string;
  secret_rotated_at?: string;
  number?: number;
  /** Absent on clients created before generations: 0. */
  grant_generation?: number;
  disabled_at?: string;
  monitoring_enabled_at?: string;
}

const CLIENT = TABLE_KEYS.client;
const LISTING = GSI1_KEYS.clients;
export const clientKeys = {
  /** The client's partition: its account and everything it owns in every family (see the registry's sort keys). */
  partition: (clientId: string) => key(CLIENT.pk, clientId),
  item: (clientId: string) => ({ pk: key(CLIENT.pk, clientId), sk: CLIENT.sk.client }),
  /** The client's access record (below): what a request needs of the client, and its request counters. */
  access: (clientId: string) => ({ pk: key(CLIENT.pk, clientId), sk: CLIENT.sk.access }),
  /** Every client sits in one GSI partition, in creation order: an operator listing, not a hot path. */
  listing: (createdAt: string, clientId: string) => ({ gsi1pk: LISTING.pk, gsi1sk: key(LISTING.sk.listing, createdAt, clientId) }),
};

const fromItem = (item: ClientItem): ClientAccount => ({
  clientId: item.client_id,
  name: item.name,
  invoiceEnabled: item.invoice_enabled,
  referenceRequestsEnabled: item.reference_requests_enabled,
  monitoringEnabled: item.monitoring_enabled_at !== undefined,
  entitlements: item.entitlements ?? [],
  createdAt: item.created_at,
  grantGeneration: item.grant_generation ?? 0,
  disabled: item.disabled_at !== undefined,
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
  /** Access to per-client families whatever the dates (demo data only; otherwise `familyAccessAtCreation`). */
  familyAccess?: Partial<Record<FamilyId, boolean>>;
}

/**
 * Families whose use is a flag on the client (FamilySpec.perClientAccess,
 * portal v1): one attribute each, `portal_v1_access`. A client stored before
 * the flag has none and keeps the family (it may be one of its users); a
 * new client gets it only before the family's deprecation, and the operator
 * may grant it only then (`clients portal-v1 ID --on|--off`).
 */
const PER_CLIENT_FAMILIES = FAMILY_IDS.filter((f) => familySpec(f).perClientAccess);
const accessAttribute = (family: FamilyId) => `${family.replaceAll('-', '_')}_access`;
/** Until when access to a family may be given: its deprecation (configuration), or always. */
const grantableAt = (family: FamilyId, now: Date) => {
  const schedule = deprecationSchedule(family);
  return !schedule || now < schedule.deprecatedAt;
};

/** May the client call this family? Decided on the client's item as authentication read it (no read of its own). */
export const clientItemGrants = (item: Record<string, unknown> | undefined, family: FamilyId): boolean =>
  !familySpec(family).perClientAccess || item?.[accessAttribute(family)] !== false;

/** Turns a per-client family on or off for a client; on is refused from the family's deprecation. */
export async function setFamilyAccess(deps: Deps, clientId: string, family: FamilyId, on: boolean): Promise<void> {
  if (!familySpec(family).perClientAccess) throw new DomainError('invalid-state', `${FAMILIES[family].title} is not given per client`);
  if (on && !grantableAt(family, deps.clock())) {
    throw new DomainError(
      'invalid-state',
      `${FAMILIES[family].title} is deprecated since ${deprecationSchedule(family)!.deprecatedAt.toISOString()}: access can no longer be given (it may still be taken away)`,
    );
  }
  await changeTrust(deps, clientId, (trust) => ({ ...trust, [accessAttribute(family)]: on }));
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
    ...Object.fromEntries(PER_CLIENT_FAMILIES.map((f) => [accessAttribute(f), input.familyAccess?.[f] ?? grantableAt(f, deps.clock())])),
  };
  const exists = new DomainError('client-exists', `Client ${clientId} already exists`);
  await transact(deps, [part('client', putItem(deps, { ...item }, itemAbsent)), part('record', putItem(deps, accessRecordOf(item), itemAbsent))], {
    client: exists,
    record: exists,
  });
  return { client: fromItem(item), clientSecret };
}

export async function getClientItem(deps: Deps, clientId: string): Promise<ClientItem | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: clientKeys.item(clientId), ConsistentRead: true }));
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

/** Every token issued so far stops working: they carry the generation they were issued under. */
const nextGeneration = (trust: Record<string, unknown>) => ({ ...trust, grant_generation: Number(trust.grant_generation ?? 0) + 1 });

/** Replaces the client's secret; the old one, and every token issued so far, stop working at once. */
export async function rotateClientSecret(deps: Deps, clientId: string): Promise<string> {
  const clientSecret = newClientSecret();
  await changeTrust(deps, clientId, nextGeneration, { secret_hash: await hashSecret(clientSecret), secret_rotated_at: deps.clock().toISOString() });
  return clientSecret;
}

/**
 * Disables a client: its credentials are refused as a wrong secret would be,
 * and every token it holds stops working. Enabling it again lets it exchange
 * its credentials for new tokens; the old tokens stay void.
 */
export async function setClientEnabled(deps: Deps, clientId: string, enabled: boolean): Promise<void> {
  const now = deps.clock().toISOString();
  await changeTrust(deps, clientId, enabled ? ({ disabled_at: _, ...trust }) => trust : (trust) => ({ ...nextGeneration(trust), disabled_at: now }));
}

/** Named condition: the client is enabled and still at the generation a token was issued under. */
export function clientTrustsGeneration(generation: number): Condition {
  return {
    expression:
      'attribute_exists(pk) AND attribute_not_exists(disabled_at) AND ' +
      (generation === 0 ? '(attribute_not_exists(grant_generation) OR grant_generation = :generation)' : 'grant_generation = :generation'),
    values: { ':generation': generation },
  };
}

/** The same check on a client item as read. */
export const clientItemTrusts = (item: Record<string, unknown> | undefined, generation: number): boolean =>
  item !== undefined && item.disabled_at === undefined && (item.grant_generation ?? 0) === generation;

/**
 * The access record (`CLIENT#<id>` / `ACCESS`): a copy of what decides
 * whether the client's tokens are trusted and which per-client families it
 * has (TRUST_ATTRIBUTES, under the client item's names, so clientItemTrusts
 * and clientItemGrants read either), the grants revoked lately (revocation.ts)
 * and the request counters (rate-limit.ts). An authenticated request reads
 * the client through the one write that counts it: one round trip, where a
 * read of the client beside a write of a counter took two. The copy stays
 * exact: whatever changes those attributes changes the item and the record
 * in one transaction. It is an item of its own because booking
 * transactions check the client item (invoicing), and a write to it on
 * every request would cancel them.
 */
const TRUST_ATTRIBUTES = ['grant_generation', 'disabled_at', ...PER_CLIENT_FAMILIES.map(accessAttribute)];

/** A client's trust attributes (TRUST_ATTRIBUTES) that are set. */
type Trust = Record<string, unknown>;
const trustOf = (item: Record<string, unknown>): Trust => Object.fromEntries(TRUST_ATTRIBUTES.flatMap((a) => (item[a] === undefined ? [] : [[a, item[a]]])));

const accessRecordOf = (item: ClientItem): Record<string, unknown> => ({
  ...clientKeys.access(item.client_id),
  entity: 'client-access',
  client_id: item.client_id,
  ...trustOf(item as unknown as Record<string, unknown>),
});

/**
 * Gives a client stored before access records its record, copied from its
 * item, if it still has none. No transaction is needed: the item's trust
 * attributes change only in a transaction that also writes the record
 * (changeTrust), so a change after this read leaves a record this write
 * does not replace. Not-found for no client.
 */
export async function ensureAccessRecord(deps: Deps, clientId: string): Promise<void> {
  const item = await getClientItem(deps, clientId);
  if (!item) throw new DomainError('not-found', `No client ${clientId}`);
  const { pk, sk, ...fields } = accessRecordOf(item);
  const record = setFrom({ set: fields });
  try {
    // An update that finds no item creates it: a put, with the command every function already carries.
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: { pk, sk },
        UpdateExpression: record.expression,
        ConditionExpression: 'attribute_not_exists(pk)',
        ExpressionAttributeNames: record.names,
        ExpressionAttributeValues: record.values,
      }),
    );
  } catch (err) {
    // There is one now, or a trust change is writing one.
    if (!isConditionalCheckFailed(err) && !isTransactionConflict(err)) throw err;
  }
}

/** Named condition: the item's trust attributes are still exactly `trust`. */
const trustStill = (trust: Trust): Condition => {
  const names = Object.fromEntries(TRUST_ATTRIBUTES.map((a, i) => [`#t${i}`, a]));
  const values = Object.fromEntries(TRUST_ATTRIBUTES.flatMap((a, i) => (trust[a] === undefined ? [] : [[`:t${i}`, trust[a]]])));
  const clauses = TRUST_ATTRIBUTES.map((a, i) => (trust[a] === undefined ? `attribute_not_exists(#t${i})` : `#t${i} = :t${i}`));
  return { expression: ['attribute_exists(pk)', ...clauses].join(' AND '), names, values };
};

/**
 * Changes a client's trust attributes (`change`: from those it has to those
 * it gets; `clientOnly` goes on the item alone). Read, then one transaction
 * that writes the item on condition that they did not change meanwhile and
 * writes the same values onto the access record, making it if there is
 * none: the record is the item's copy again after every trust change,
 * whatever came before (an older version's operator CLI changing the item
 * alone). Runs again if the item changed meanwhile (transact itself sends
 * the transaction again when it met a write in flight on the record, which
 * every request writes).
 */
async function changeTrust(deps: Deps, clientId: string, change: (trust: Trust) => Trust, clientOnly: Record<string, unknown> = {}): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const item = await getClientItem(deps, clientId);
    if (!item) throw new DomainError('not-found', `No client ${clientId}`);
    const before = trustOf(item as unknown as Record<string, unknown>);
    const after = change(before);
    // Every trust attribute, an absent one as undefined (removed), so the record's copy is exactly the item's.
    const trust = Object.fromEntries(TRUST_ATTRIBUTES.map((a) => [a, after[a]]));
    try {
      await transact(deps, [
        part('client', updateItem(deps, clientKeys.item(clientId), { set: { ...trust, ...clientOnly } }, trustStill(before))),
        part('record', updateItem(deps, clientKeys.access(clientId), { set: { ...trust, entity: 'client-access', client_id: clientId } })),
      ]);
      return;
    } catch (err) {
      if (!(err instanceof TransactionFailed) || attempt >= 8) throw err;
      await conflictPause(attempt);
    }
  }
}

/** The client's access record as the last request left it, read without counting one. */
export async function getAccessRecord(deps: Deps, clientId: string): Promise<Record<string, unknown> | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: clientKeys.access(clientId), ConsistentRead: true }));
  return Item;
}

/**
 * Checks a client id and secret. An unknown id and a wrong secret give the
 * same error after the same work, so neither reveals which clients exist.
 */
export async function verifyClientCredentials(deps: Deps, clientId: string, clientSecret: string): Promise<ClientAccount> {
  const item = await getClientItem(deps, clientId);
  const matches = await verifySecret(clientSecret, item?.secret_hash ?? DECOY_SECRET_HASH);
  // A disabled client is refused after the same work, with the same answer.
  if (!item || !matches || item.disabled_at !== undefined) throw new DomainError('invalid-credentials', 'The client id or secret is not valid');
  return fromItem(item);
}

/** Refuses a token exchange for a family whose product the client's account does not include. */
export function ensureEntitled(client: ClientAccount, family: FamilyId): void {
  if ((FAMILIES[family] as FamilySpec).entitlement === 'monitoring' && !client.monitoringEnabled) {
    throw new DomainError('forbidden', 'This account does not include registration monitoring');
  }
}
