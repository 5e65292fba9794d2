import * as v from 'valibot';
import { issuePointer, plainMessage } from '../../api/schemas/messages.js';
import { WorkerCreate } from '../../api/schemas/registration-monitoring.js';
import { parseCsv } from '../platform/csv.js';
import { DomainError } from '../platform/errors.js';
import type { WorkerInput } from './workers.js';

/**
 * An import file's rows: the header checked
 * up front, then each row made into the very body `POST /workers` takes and
 * parsed with the same schema, so a row's errors carry the pointer, detail and
 * code the API would answer for that body.
 */

import { MAX_IMPORT_ROWS } from './import-limits.js';

export { MAX_IMPORT_BYTES, MAX_IMPORT_ROWS } from './import-limits.js';
export const REQUIRED_COLUMNS = ['first_name', 'last_name', 'register', 'registration_number'] as const;
export const OPTIONAL_COLUMNS = ['external_ref', 'email', 'phone', 'job_role', 'profession', 'monitoring_enabled', 'frequency'] as const;
type Column = (typeof REQUIRED_COLUMNS)[number] | (typeof OPTIONAL_COLUMNS)[number];

export interface RowError {
  /** The file line the row starts on (the header is line 1). */
  row: number;
  column: string;
  value: string | null;
  /** What `POST /workers` answers for the same body (`validation`, `worker-duplicate`), or `duplicate-in-file`. */
  code: string;
  detail: string;
  pointer: string;
}

export interface ImportRow {
  line: number;
  input: WorkerInput;
}

/** The column a body pointer comes from: `/registration/number` is `registration_number`. */
const COLUMN_OF_POINTER: Record<string, Column> = {
  '/registration/register': 'register',
  '/registration/number': 'registration_number',
  '/registration/profession': 'profession',
  '/monitoring/enabled': 'monitoring_enabled',
  '/monitoring/frequency': 'frequency',
};
const columnOf = (pointer: string): string => COLUMN_OF_POINTER[pointer] ?? pointer.split('/')[1] ?? '';

const FLAGS: Record<string, boolean> = { true: true, false: false, yes: true, no: false, '1': true, '0': false };

/** Fields without a value are left out, as a JSON body leaves them out (a key holding undefined reads differently). */
const present = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, value]) => value !== undefined));

/** The `POST /workers` body a row stands for: empty cells are left out, as a client would leave out a field. */
export function rowBody(cells: Partial<Record<Column, string>>): Record<string, unknown> {
  const text = (c: Column) => (cells[c] === undefined || cells[c] === '' ? undefined : cells[c]);
  const flag = text('monitoring_enabled');
  const monitoring = present({ enabled: flag === undefined ? undefined : (FLAGS[flag.toLowerCase()] ?? flag), frequency: text('frequency') });
  return present({
    first_name: text('first_name'),
    last_name: text('last_name'),
    external_ref: text('external_ref'),
    email: text('email'),
    phone: text('phone'),
    job_role: text('job_role'),
    registration: present({ register: text('register')?.toLowerCase(), number: text('registration_number'), profession: text('profession') }),
    monitoring: Object.keys(monitoring).length ? monitoring : undefined,
  });
}

export interface ReadFile {
  rows: ImportRow[];
  errors: RowError[];
  warnings: string[];
  rowsTotal: number;
}

const invalidFile = (detail: string) => new DomainError('import-invalid-file', detail);

/** The upsert key of a row: its external_ref, else its registration. */
export const upsertKey = (input: WorkerInput): string =>
  input.external_ref ? `ref:${input.external_ref}` : `reg:${input.registration.register}:${input.registration.number}`;

/** Reads and checks a whole file: refused as a whole (`import-invalid-file`) or row by row. */
export function readImportFile(bytes: Buffer): ReadFile {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidFile('The file is not UTF-8 text');
  }
  const [header, ...records] = parseCsv(text);
  if (!header) throw invalidFile('The file is empty: it needs a header row');
  const names = header.cells.map((c) => c.trim().toLowerCase());
  const missing = REQUIRED_COLUMNS.filter((c) => !names.includes(c));
  if (missing.length)
    throw invalidFile(`The header lacks ${missing.join(', ')} (columns: ${[...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS].join(', ')}, in any case and order)`);
  if (records.length > MAX_IMPORT_ROWS) throw invalidFile(`The file has ${records.length} rows; at most ${MAX_IMPORT_ROWS}`);
  const known = new Set<string>([...REQUIRED_COLUMNS, ...OPTIONAL_COLUMNS]);
  const warnings = names.filter((n) => !known.has(n)).map((n) => `Column "${n}" is not imported`);

  const result: ReadFile = { rows: [], errors: [], warnings, rowsTotal: records.length };
  const firstLineOf = new Map<string, number>();
  for (const record of records) {
    const cells: Partial<Record<Column, string>> = {};
    names.forEach((n, i) => known.has(n) && (cells[n as Column] = (record.cells[i] ?? '').trim()));
    const parsed = v.safeParse(WorkerCreate, rowBody(cells));
    if (!parsed.success) {
      result.errors.push(
        ...parsed.issues.map((issue) => {
          const pointer = issuePointer(issue);
          const column = columnOf(pointer);
          return { row: record.line, column, value: cells[column as Column] ?? null, code: 'validation', detail: plainMessage(issue), pointer };
        }),
      );
      continue;
    }
    const key = upsertKey(parsed.output);
    const first = firstLineOf.get(key);
    if (first !== undefined) {
      const column = parsed.output.external_ref ? 'external_ref' : 'registration_number';
      result.errors.push({
        row: record.line,
        column,
        value: cells[column] ?? null,
        code: 'duplicate-in-file',
        detail: `The same worker as line ${first}`,
        pointer: column === 'external_ref' ? '/external_ref' : '/registration/number',
      });
      continue;
    }
    firstLineOf.set(key, record.line);
    result.rows.push({ line: record.line, input: parsed.output });
  }
  return result;
}
