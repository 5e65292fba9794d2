/** An import file's limits (decision 17); pure, so the route table reads them too. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
export const MAX_IMPORT_ROWS = 10_000;
/** Imports that may wait behind the running one (one runs per client). */
export const MAX_QUEUED_IMPORTS = 5;
