import { createHash, randomUUID } from 'node:crypto';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { linkTo } from '../../api/routes/operation.js';
import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { deleteDocument } from '../documents/delete.js';
import { DOCUMENT_KINDS, DOCUMENTS_BUCKET_ENV, isKeyOf, sniffType } from '../documents/kinds.js';
import { createObjectReader, objectUrl, s3LocationFromEnv, s3Signer, S3ReadError } from '../documents/signed-get.js';
import type { FileScanner } from '../documents/scanner.js';
import { createUploadForm, type UploadForm } from '../documents/upload-policy.js';
import { requireEnv, environment } from '../platform/config.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { AttachedScanStatus, GroupItem, GroupRequest } from '../requests/group.js';

/**
 * Request files: the upload form's signed policy, the checks
 * when the browser comes back from the bucket, and the signed download URL.
 * The browser posts under `request-uploads` (a day's lifecycle: what is never
 * attached goes by itself); the attach step copies a good file to its item's
 * key under `request-files`, which no rule expires, and deletes the upload.
 */

const KIND = 'request-files' as const;
const UPLOADS = 'request-uploads' as const;
/** How long an upload form works. */
export const UPLOAD_SECONDS = 15 * 60;
/** How long a download link works (section 1, item file: 300 s). */
export const DOWNLOAD_SECONDS = 300;
export const MIN_FILE_BYTES = 1;
export const MAX_FILE_BYTES = DOCUMENT_KINDS[KIND].maxBytes;

const itemPrefix =
  (kind: typeof KIND | typeof UPLOADS) =>
  (request: Pick<GroupRequest, 'client_id' | 'id'>, itemId: number): string =>
    `${DOCUMENT_KINDS[kind].prefix}${request.client_id}/${request.id}/${itemId}/`;
/** Every file of an item lies under this prefix; an upload adds a fresh uuid, so a retry never overwrites what was checked. */
export const itemFilePrefix = itemPrefix(KIND);
/** Where the browser's uploads for an item go (the same uuid follows the file when it is attached). */
export const itemUploadPrefix = itemPrefix(UPLOADS);

const bucket = () => requireEnv(DOCUMENTS_BUCKET_ENV);
const uploadUrl = () => environment().DOCUMENTS_UPLOAD_URL || `https://${bucket()}.s3.${s3LocationFromEnv().region}.amazonaws.com/`;

/** The form that posts one file for an item straight to the bucket, then comes back to `uploaded`. */
export async function uploadFormFor(deps: Deps, request: GroupRequest, item: GroupItem, token: string, page: 'submission' | 'form'): Promise<UploadForm> {
  const now = deps.clock();
  const op = page === 'submission' ? requestGroups.requestSubmissionUploaded : requestGroups.requestFormUploaded;
  return createUploadForm(
    {
      url: uploadUrl(),
      bucket: bucket(),
      key: `${itemUploadPrefix(request, item.id)}${randomUUID()}`,
      minBytes: MIN_FILE_BYTES,
      maxBytes: MAX_FILE_BYTES,
      expiresAt: new Date(now.getTime() + UPLOAD_SECONDS * 1000),
      redirect: linkTo(request.public_base, op, { token }),
      region: s3LocationFromEnv().region,
      credentials: await defaultProvider()(),
    },
    now,
  );
}

async function signed(method: 'GET' | 'PUT' | 'DELETE', key: string, query: Record<string, string> = {}, headers: Record<string, string> = {}) {
  const location = s3LocationFromEnv();
  const url = objectUrl(location, bucket(), key);
  const request = {
    method,
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port ? Number(url.port) : undefined,
    path: url.pathname,
    query,
    headers: { host: url.host, ...headers },
  };
  const signer = s3Signer(location.region, defaultProvider());
  return { url, signer, request };
}

export const deleteRequestFile = (key: string): Promise<void> => deleteDocument(key, bucket());

/** S3's CopyObject (a PUT with the source named), within the bucket; S3 may answer 200 with an error in the body. */
async function copyObject(from: string, to: string): Promise<void> {
  const source = `/${bucket()}/${from.split('/').map(encodeURIComponent).join('/')}`;
  const { url, signer, request } = await signed('PUT', to, {}, { 'x-amz-copy-source': source });
  const { host: _host, ...headers } = (await signer.sign(request)).headers;
  const response = await fetch(url, { method: 'PUT', headers });
  const body = await response.text();
  // The candidate sees the page again with this message (a 422, not a 500); the upload itself expires.
  if (!response.ok || body.includes('<Error>'))
    throw new DomainError('invalid-state', 'We could not keep your file just now. Please upload it again.', { status: response.status });
}

/**
 * Copies a checked upload to its item's file key, then runs `attach` (the
 * item's write); once the item holds the file, the upload is deleted. The
 * file key follows from the upload's, so a second pass over one upload (a
 * reload, two tabs) copies to the same key: when `attach` fails, the copy is
 * deleted only if the item does not hold it (`held`), else the earlier pass
 * attached it and this one succeeds too.
 */
export async function keepUploadedFile(checked: CheckedFile, attach: (file: CheckedFile) => Promise<unknown>, held: () => Promise<boolean>): Promise<void> {
  await copyObject(checked.upload_key, checked.key);
  try {
    await attach(checked);
  } catch (err) {
    // Unsure whether the item holds it: keep the copy (an orphan costs storage; a deleted evidence file is lost).
    const holds = await held().catch(() => undefined);
    if (holds === false) await deleteRequestFile(checked.key).catch(() => undefined);
    if (!holds) throw err;
  }
  await deleteRequestFile(checked.upload_key).catch(() => undefined);
}

/** A 300-second signed link to download an item's file as an attachment. */
export async function fileDownloadUrl(file: NonNullable<GroupItem['file']>): Promise<string> {
  const { url, signer, request } = await signed('GET', file.key, { 'response-content-disposition': `attachment; filename="${file.name}"` });
  const presigned = await signer.presign(request, { expiresIn: DOWNLOAD_SECONDS });
  const query = new URLSearchParams(Object.entries(presigned.query ?? {}).map(([k, v]): [string, string] => [k, String(v)]));
  return `${url.origin}${url.pathname}?${query.toString()}`;
}

export interface CheckedFile {
  /** The item's file key (request-files), where keepUploadedFile puts it. */
  key: string;
  /** Where the browser put it (request-uploads). */
  upload_key: string;
  name: string;
  content_type: NonNullable<ReturnType<typeof sniffType>>;
  size: number;
  sha256: string;
  /** The scanner adapter's answer; an infected file is never attached. */
  scan_status: AttachedScanStatus;
}

const EXTENSIONS = { 'application/pdf': 'pdf', 'image/jpeg': 'jpg', 'image/png': 'png' } as const;

/**
 * What came back from the bucket: the key must be one of this item's, the
 * size 1 B to 10 MiB and the type PDF, JPEG or PNG by its leading bytes (the
 * declared type is ignored), and the scanner adapter must not find it
 * infected. Anything else is deleted and refused.
 */
export async function checkUploadedFile(request: GroupRequest, item: GroupItem, key: string, scanner: FileScanner): Promise<CheckedFile> {
  const uploads = itemUploadPrefix(request, item.id);
  const uuid = key.slice(uploads.length);
  if (!isKeyOf(UPLOADS, key) || !key.startsWith(uploads) || !/^[0-9a-f-]{36}$/.test(uuid)) {
    throw new DomainError('invalid-state', 'This upload is not for this item. Please upload the file again from this page.');
  }
  let body: Buffer;
  try {
    body = await createObjectReader()(bucket(), key);
  } catch (err) {
    if (err instanceof S3ReadError) throw new DomainError('invalid-state', 'The file did not arrive. Please upload it again.');
    throw err;
  }
  const type = sniffType(KIND, body);
  const refusal =
    body.length < MIN_FILE_BYTES
      ? 'The file is empty.'
      : body.length > MAX_FILE_BYTES
        ? 'The file is larger than 10 MiB.'
        : !type
          ? 'The file must be a PDF, JPEG or PNG.'
          : undefined;
  // Then the scanner adapter (section 1.4 rule 3): what it finds infected goes like any other refused file.
  const scan_status = refusal ? undefined : await scanner.scan(body);
  const refused = refusal ?? (scan_status === 'infected' ? 'The virus check found something harmful in the file.' : undefined);
  if (refused) {
    await deleteRequestFile(key);
    throw new DomainError('invalid-state', `${refused} It was not attached; please upload another.`);
  }
  return {
    key: `${itemFilePrefix(request, item.id)}${uuid}`,
    upload_key: key,
    name: `${item.type}-${item.id}.${EXTENSIONS[type!]}`,
    content_type: type!,
    size: body.length,
    sha256: createHash('sha256').update(body).digest('hex'),
    scan_status: scan_status as AttachedScanStatus,
  };
}
