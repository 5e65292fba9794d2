import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { gunzipSync, gzipSync } from 'node:zlib';
import { clientKeys } from '../access/clients.js';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { queryAll } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { ActiveItem, Kept } from './adapter.js';
import type { DataSubjectAction } from './families.js';

/**
 * The items a data subject request leaves: its audit record (kept six years:
 * who asked, when, the address's hash, what it came to) and an export's
 * document (downloadable for seven days). Both in the client's partition.
 */

/** Six years: the limitation period for a claim about how the request was handled. */
export const AUDIT_SECONDS = 6 * 366 * 86_400;
/** An export can be fetched for seven days; after that it is gone (the clock decides; TTL cleans up). */
export const EXPORT_SECONDS = 7 * 86_400;
/** An item holds 400 KB; a compressed export document stays well under it. */
export const MAX_EXPORT_BYTES = 350_000;

const CLIENT = TABLE_KEYS.client;
const AUDITS = GSI1_KEYS.dataSubjectAudits;
export const dataSubjectKeys = {
  audit: (clientId: string, family: FamilyId, jobId: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.dataSubjectAudit, family, padId(jobId)),
  }),
  auditPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.dataSubjectAudit, family),
  auditListing: (at: string, clientId: string, family: FamilyId, jobId: number) => ({
    gsi1pk: AUDITS.pk,
    gsi1sk: key(AUDITS.sk.record, at, clientId, family, padId(jobId)),
  }),
  auditPartition: AUDITS.pk,
  exportDocument: (clientId: string, family: FamilyId, jobId: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.dataExport, family, padId(jobId)),
  }),
  exportPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.dataExport, family),
};

export type Counts = Record<string, number>;

export interface AuditRecord {
  action: DataSubjectAction;
  client_id: string;
  family: FamilyId;
  job_id: number;
  subject_hash: string;
  /** The API client, and the team user where the family has them. */
  requested_by: { client_id: string; acting_user: string | null };
  requested_at: string;
  status: 'queued' | 'completed' | 'refused';
  counts: Counts;
  kept: Kept[];
  /** An erasure that met a booking made meanwhile: what stopped it. */
  active?: ActiveItem[];
  finished_at?: string;
}

export function auditItem(deps: Deps, record: AuditRecord): Record<string, unknown> {
  const at = new Date(record.requested_at);
  return {
    ...dataSubjectKeys.audit(record.client_id, record.family, record.job_id),
    ...dataSubjectKeys.auditListing(record.requested_at, record.client_id, record.family, record.job_id),
    entity: 'data-subject-audit',
    ...record,
    // Cleanup only: nothing reads the record as gone before then.
    ttl: toEpochSeconds(addSeconds(at, AUDIT_SECONDS)),
  };
}

export async function readAudit(deps: Deps, clientId: string, family: FamilyId, jobId: number): Promise<AuditRecord | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: dataSubjectKeys.audit(clientId, family, jobId), ConsistentRead: true }));
  return Item as AuditRecord | undefined;
}

/** The export's document item: gzipped JSON (never the address in clear in the table), with its hash so an erasure finds it. */
export function exportItem(
  deps: Deps,
  input: { clientId: string; family: FamilyId; jobId: number; subjectHash: string; document: unknown },
): Record<string, unknown> | 'too-large' {
  const body = gzipSync(Buffer.from(JSON.stringify(input.document), 'utf8'));
  if (body.byteLength > MAX_EXPORT_BYTES) return 'too-large';
  const now = deps.clock();
  const expires = addSeconds(now, EXPORT_SECONDS);
  return {
    ...dataSubjectKeys.exportDocument(input.clientId, input.family, input.jobId),
    entity: 'data-export',
    subject_hash: input.subjectHash,
    document: body,
    created_at: now.toISOString(),
    expires_at: expires.toISOString(),
    ttl: toEpochSeconds(expires),
  };
}

/** The export's document while it may still be fetched; undefined once expired or erased. */
export async function readExportDocument(
  deps: Deps,
  clientId: string,
  family: FamilyId,
  jobId: number,
): Promise<{ document: unknown; expiresAt: string } | undefined> {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: dataSubjectKeys.exportDocument(clientId, family, jobId), ConsistentRead: true }),
  );
  if (!Item || String(Item.expires_at) <= deps.clock().toISOString()) return undefined;
  return { document: JSON.parse(gunzipSync(Buffer.from(Item.document as Uint8Array)).toString('utf8')), expiresAt: String(Item.expires_at) };
}

/** The audit records of one client (every family), or of every client, oldest first: what `ops data-subjects list` prints. */
export async function listAudits(deps: Deps, clientId?: string): Promise<AuditRecord[]> {
  const items = clientId
    ? await queryAll(deps, {
        KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
        ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId), ':prefix': CLIENT.sk.dataSubjectAudit },
        ConsistentRead: true,
      })
    : await queryAll(deps, { IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': AUDITS.pk } });
  return items
    .map((i) => {
      const { pk, sk, gsi1pk, gsi1sk, entity, ttl, ...record } = i;
      return record as unknown as AuditRecord;
    })
    .sort((a, b) => (a.requested_at < b.requested_at ? -1 : a.requested_at > b.requested_at ? 1 : a.job_id - b.job_id));
}
