import { createHash } from 'node:crypto';
import { chmod, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { createObjectReader, objectUrl, s3LocationFromEnv, s3Signer, S3ReadError } from '../documents/signed-get.js';
import { MissingConfigError, environment } from '../platform/config.js';
import type { Deps } from '../platform/deps.js';
import { padId } from '../platform/ids.js';
import { signedFetch } from '../platform/signed-fetch.js';
import { retentionEnd } from './evidence-retention.js';

/**
 * Where evidence records live, write-once. In the
 * cloud: the evidence bucket, S3 Object Lock in compliance mode, each object
 * kept until its `retention_until` (nobody, the account's root included, can
 * delete or overwrite it before then). Locally: read-only files under
 * `$DATA_DIR/evidence`. Either way the object is the canonical JSON byte for
 * byte as hashed, keyed by client, verification id and hash: a check whose
 * transaction lost a race and is planned again (its chain position moved)
 * writes its new bytes beside the old, which nothing references.
 */

export interface EvidenceStore {
  /** Writes the record once; the same bytes again change nothing. */
  put(key: string, body: Buffer, retainUntil: Date): Promise<void>;
  /** The bytes, or undefined when there is no such object. */
  get(key: string): Promise<Buffer | undefined>;
}

export const evidenceObjectKey = (clientId: string, verificationId: number, sha256: string) => `${clientId}/${padId(verificationId)}-${sha256}.json`;

function fileStore(root: string): EvidenceStore {
  const pathOf = (key: string) => join(root, ...key.split('/'));
  return {
    async put(key, body) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      try {
        await writeFile(path, body, { flag: 'wx', mode: 0o444 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        // The name carries the hash: the file there holds these bytes, unless someone changed it (reads will say).
        return;
      }
      await chmod(path, 0o444); // whatever the umask made of it
    },
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
  };
}

function bucketStore(bucket: string): EvidenceStore {
  const location = s3LocationFromEnv();
  const credentials = defaultProvider();
  const read = createObjectReader(location, credentials);
  return {
    async put(key, body, retainUntil) {
      const response = await signedFetch(s3Signer(location.region, credentials), objectUrl(location, bucket, key), {
        method: 'PUT',
        headers: {
          'content-type': 'application/json',
          'x-amz-object-lock-mode': 'COMPLIANCE',
          'x-amz-object-lock-retain-until-date': retainUntil.toISOString(),
          // S3 requires a checksum with Object Lock; this one also makes S3 refuse bytes damaged on the way.
          'x-amz-checksum-sha256': createHash('sha256').update(body).digest('base64'),
        },
        body,
      });
      if (!response.ok) throw new Error(`S3 PUT ${bucket}/${key} answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    },
    async get(key) {
      try {
        return await read(bucket, key);
      } catch (err) {
        if (err instanceof S3ReadError && / answered (403|404):/.test(err.message)) return undefined;
        throw err;
      }
    },
  };
}

/** The folder of the local store, or undefined where the bucket is the store (or should be: a function in the cloud). */
function localRoot(deps: Deps): string | undefined {
  const { evidenceBucket, evidenceDir } = deps.config;
  if (evidenceBucket) return undefined;
  if (evidenceDir) return evidenceDir;
  if (environment().AWS_LAMBDA_FUNCTION_NAME) return undefined;
  return join(tmpdir(), 'agency-evidence');
}

/** The store the configuration names; off the cloud without either setting, a folder under the system's temporary directory (tests). */
export function evidenceStore(deps: Deps): EvidenceStore {
  if (deps.config.evidenceBucket) return bucketStore(deps.config.evidenceBucket);
  const root = localRoot(deps);
  if (!root) throw new MissingConfigError('EVIDENCE_BUCKET');
  return fileStore(root);
}

/**
 * Deletes the local store's files whose retention has ended (the record's
 * `captured_at` plus EVIDENCE_RETENTION_YEARS, as for its item); returns how
 * many. In the cloud it does nothing: the bucket's lifecycle rule expires
 * objects once their Object Lock retention is over.
 */
export async function sweepExpiredEvidence(deps: Deps): Promise<number> {
  const root = localRoot(deps);
  if (!root) return 0;
  const now = deps.clock().getTime();
  let deleted = 0;
  let files: string[];
  try {
    files = (await readdir(root, { recursive: true })).filter((f) => f.endsWith('.json'));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  for (const file of files) {
    const path = join(root, file);
    let record: { captured_at?: string };
    try {
      record = JSON.parse((await readFile(path)).toString('utf8')) as { captured_at?: string };
    } catch {
      continue; // unreadable: reads report it (the hash no longer matches); not for the sweep to judge
    }
    // A file that does not say when it was captured is not ours to judge: kept.
    if (!record.captured_at || retentionEnd(deps, record.captured_at).getTime() > now) continue;
    await rm(path, { force: true });
    deleted++;
  }
  return deleted;
}
