/**
 * RFC 4180 CSV: fields with commas, quotes or line breaks are quoted, quotes
 * doubled. A text cell that a spreadsheet would read as a formula (it begins
 * with =, +, -, @, tab or carriage return) gets a leading single quote, as
 * OWASP advises against CSV injection. Numbers are left as they are: a
 * negative amount is data, not a formula, and must stay a number.
 */
export function toCsv(header: string[], rows: unknown[][]): string {
  const cell = (value: unknown) => {
    let text = value === null || value === undefined ? '' : String(value);
    if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
    return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
  };
  return [header, ...rows].map((row) => row.map(cell).join(',')).join('\r\n') + '\r\n';
}
