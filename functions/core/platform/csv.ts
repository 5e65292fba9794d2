/** What a cell may hold: anything else would print as [object Object]. */
export type CsvCell = string | number | bigint | boolean | null | undefined;

/**
 * RFC 4180 CSV: fields with commas, quotes or line breaks are quoted, quotes
 * doubled. A text cell that a spreadsheet would read as a formula (it begins
 * with =, +, -, @, tab or carriage return) gets a leading single quote, as
 * OWASP advises against CSV injection. Numbers are left as they are: a
 * negative amount is data, not a formula, and must stay a number.
 * Lines are written a part at a time, the header being the first.
 */
export function csvLines(rows: CsvCell[][]): string {
  const cell = (value: CsvCell) => {
    let text = value === null || value === undefined ? '' : String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return rows.length ? rows.map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n' : '';
}

/** One record of a CSV file, with the file line it starts on (1 is the header). */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/**
 * Reads RFC 4180 CSV (quoted fields with commas, doubled quotes and line
 * breaks; CRLF or LF; a leading byte-order mark ignored). Blank lines are
 * skipped. An unterminated quote runs to the end of the file, as spreadsheets read it.
 */
export function parseCsv(text: string): CsvRecord[] {
  const records: CsvRecord[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  const input = text.startsWith('\uFEFF') ? text.slice(1) : text;
  const endRecord = () => {
    cells.push(cell);
    if (cells.length > 1 || cells[0] !== '') records.push({ line: start, cells });
    cells = [];
    cell = '';
  };
  for (let i = 0; i < input.length; i++) {
    const c = input[i]!;
    if (quoted) {
      if (c === '"' && input[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && input[i + 1] === '\n') i++;
      endRecord();
      start = ++line;
    } else cell += c;
  }
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}
