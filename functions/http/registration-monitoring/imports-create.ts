import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { startImport } from '../../core/registration-monitoring/imports.js';
import { DomainError } from '../../core/platform/errors.js';
import { idempotency } from '../../middleware/idempotency.js';
import { monitoringHandler } from './_acting.js';
import { uploadedFile } from './_upload.js';

/** 202: every row is checked now; the import (not a dry run) commits from the jobs queue. */
export const handler = monitoringHandler(registrationMonitoring.startImport, async ({ deps, caller, query, upload, headers, acting }) => {
  const file = uploadedFile(headers['content-type'], upload);
  if (!file) throw new DomainError('import-invalid-file', 'Send the CSV as the body (text/csv) or as the multipart part named "file"');
  const started = await startImport(deps, caller.clientId, { bytes: file.bytes, name: file.name ?? query.name ?? null, mode: query.mode, dryRun: query.dry_run ?? false, uploadedBy: acting?.id ?? null });
  return { status: 202, body: started };
}, { idempotency });
