import * as account from '../../api/routes/registration-monitoring-account.js';
import { startImport } from '../../core/registration-monitoring/imports.js';
import { DomainError } from '../../core/platform/errors.js';
import { idempotency } from '../../middleware/idempotency.js';
import { monitoringHandler } from './_acting.js';
import { checkedFileName, uploadedFile } from './_upload.js';

/** 202: every row is checked now; the import (not a dry run) commits from the jobs queue. */
export const handler = monitoringHandler(
  account.startImport,
  async ({ deps, caller, query, upload, headers, acting }) => {
    const file = uploadedFile(headers['content-type'], upload);
    if (!file) throw new DomainError('import-invalid-file', 'Send the CSV as the body (text/csv) or as the multipart part named "file"');
    // A multipart part's own name, else the `name` query parameter: checked where it came from.
    const name = file.name !== null ? checkedFileName(file.name, { pointer: '/file/filename' }) : checkedFileName(query.name, { parameter: 'name' });
    const started = await startImport(deps, caller.clientId, {
      bytes: file.bytes,
      name,
      mode: query.mode,
      dryRun: query.dry_run ?? false,
      uploadedBy: acting?.id ?? null,
    });
    return { status: 202, body: started };
  },
  { idempotency },
);
