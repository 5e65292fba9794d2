import { WIN_ANSI_WIDTHS } from './pdf-font-metrics.js';

/**
 * A small writer of text-only PDF 1.4 documents in the standard fonts
 * Helvetica and Helvetica-Bold: paragraphs wrapped to the page, new pages as
 * needed, a document information dictionary. It is all the reference PDF
 * needs; a general PDF library (pdfkit: 130 KB minified, with fonts, images,
 * forms and encryption) would put its function over the 250 KB bundle limit.
 *
 * Text is encoded in WinAnsiEncoding, the standard fonts' encoding: a
 * character it cannot show is written as "?".
 */

export type FontWeight = keyof typeof WIN_ANSI_WIDTHS;

export interface TextStyle {
  weight: FontWeight;
  size: number;
  /** `#rgb` or `#rrggbb`. */
  color: string;
}

export interface PageSetup {
  /** Points: A4 is 595.28 × 841.89. */
  width: number;
  height: number;
  margin: number;
}

export const A4: Omit<PageSetup, 'margin'> = { width: 595.28, height: 841.89 };

/** Line height and baseline offset of Helvetica, from its font box and ascender (in em). */
const LINE_HEIGHT = 1.156;
const ASCENT = 0.718;
const QUESTION_MARK = 63;

/** Unicode code points outside Latin-1 that WinAnsiEncoding has, and their codes. */
const WIN_ANSI_EXTRA: Record<number, number> = {
  0x20ac: 0x80,
  0x201a: 0x82,
  0x0192: 0x83,
  0x201e: 0x84,
  0x2026: 0x85,
  0x2020: 0x86,
  0x2021: 0x87,
  0x02c6: 0x88,
  0x2030: 0x89,
  0x0160: 0x8a,
  0x2039: 0x8b,
  0x0152: 0x8c,
  0x017d: 0x8e,
  0x2018: 0x91,
  0x2019: 0x92,
  0x201c: 0x93,
  0x201d: 0x94,
  0x2022: 0x95,
  0x2013: 0x96,
  0x2014: 0x97,
  0x02dc: 0x98,
  0x2122: 0x99,
  0x0161: 0x9a,
  0x203a: 0x9b,
  0x0153: 0x9c,
  0x017e: 0x9e,
  0x0178: 0x9f,
};

/** The text's bytes in WinAnsiEncoding; tabs become spaces and anything else it cannot show becomes "?". */
export function toWinAnsi(text: string): number[] {
  const bytes: number[] = [];
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (code === 9) bytes.push(32);
    else if ((code >= 32 && code <= 126) || (code >= 0xa0 && code <= 0xff)) bytes.push(code);
    else bytes.push(WIN_ANSI_EXTRA[code] ?? QUESTION_MARK);
  }
  return bytes;
}

/** Width in points of WinAnsi bytes set in a font and size. */
export function widthOf(bytes: number[], weight: FontWeight, size: number): number {
  const widths = WIN_ANSI_WIDTHS[weight];
  return (bytes.reduce((sum, b) => sum + (widths[b - 32] ?? 0), 0) * size) / 1000;
}

/** Greedy line breaking at spaces; a word wider than the line is broken where it must be. */
export function wrap(text: string, weight: FontWeight, size: number, maxWidth: number): number[][] {
  const lines: number[][] = [];
  for (const paragraph of text.split(/\r?\n/)) {
    const words: number[][] = [[]];
    for (const b of toWinAnsi(paragraph)) {
      if (b === 32) words.push([]);
      else words.at(-1)!.push(b);
    }
    let line: number[] = [];
    for (const word of words) {
      const candidate = line.length ? [...line, 32, ...word] : word;
      if (widthOf(candidate, weight, size) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line.length) lines.push(line);
      line = [];
      for (const b of word) {
        if (line.length && widthOf([...line, b], weight, size) > maxWidth) {
          lines.push(line);
          line = [];
        }
        line.push(b);
      }
    }
    lines.push(line);
  }
  return lines;
}

/** A PDF literal string: the delimiters escaped, anything outside printable ASCII as an octal escape. */
function literal(bytes: number[]): string {
  return `(${bytes
    .map((b) =>
      b === 0x28 || b === 0x29 || b === 0x5c
        ? `\\${String.fromCharCode(b)}`
        : b < 32 || b > 126
          ? `\\${b.toString(8).padStart(3, '0')}`
          : String.fromCharCode(b),
    )
    .join('')})`;
}

/** A text string for the information dictionary: literal when it is plain ASCII, else UTF-16BE. */
function infoString(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return literal([...text].map((c) => c.charCodeAt(0)));
  return `<FEFF${Buffer.from(text, 'utf16le').swap16().toString('hex').toUpperCase()}>`;
}

const number = (n: number) => String(Math.round(n * 100) / 100);

function rgb(color: string): string {
  const hex = color.replace('#', '');
  const full = hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex;
  return [0, 2, 4].map((i) => number(parseInt(full.slice(i, i + 2), 16) / 255)).join(' ');
}

const pdfDate = (date: Date) => `D:${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

export class TextDocument {
  private readonly pages: string[][] = [[]];
  /** Distance of the next line's top from the top of the page. */
  private y: number;
  private lastSize = 12;

  constructor(
    private readonly setup: PageSetup,
    private readonly info: { title: string; author: string; subject: string; creator: string; created: Date },
    /** A line written at the top of every page (the simulated register's banner). */
    private readonly banner?: { text: string; style: TextStyle },
  ) {
    this.y = setup.margin;
    this.writeBanner();
  }

  private writeBanner(): void {
    if (!this.banner) return;
    const { text, style } = this.banner;
    const { height, margin } = this.setup;
    this.pages
      .at(-1)!
      .push(
        `BT /${style.weight === 'bold' ? 'F2' : 'F1'} ${number(style.size)} Tf ${rgb(style.color)} rg ${number(margin)} ${number(height - this.y - style.size * ASCENT)} Td ${literal(toWinAnsi(text))} Tj ET`,
      );
    this.y += style.size * LINE_HEIGHT * 2;
  }

  /** Writes `text` wrapped to the page width, starting on a new line; `\n` starts a new line. */
  text(text: string, style: TextStyle): this {
    const { width, height, margin } = this.setup;
    const lineHeight = style.size * LINE_HEIGHT;
    const font = style.weight === 'bold' ? 'F2' : 'F1';
    for (const line of wrap(text, style.weight, style.size, width - 2 * margin)) {
      if (this.y + lineHeight > height - margin) {
        this.pages.push([]);
        this.y = margin;
        this.writeBanner();
      }
      const baseline = height - this.y - style.size * ASCENT;
      this.pages.at(-1)!.push(`BT /${font} ${number(style.size)} Tf ${rgb(style.color)} rg ${number(margin)} ${number(baseline)} Td ${literal(line)} Tj ET`);
      this.y += lineHeight;
    }
    this.lastSize = style.size;
    return this;
  }

  /** Leaves `lines` blank lines of the last size used. */
  moveDown(lines: number): this {
    this.y += lines * this.lastSize * LINE_HEIGHT;
    return this;
  }

  get pageCount(): number {
    return this.pages.length;
  }

  toBuffer(): Buffer {
    const { width, height } = this.setup;
    // Objects: 1 catalog, 2 page tree, 3–4 fonts, 5 information, then a page and its contents per page.
    const pageIds = this.pages.map((_, i) => 6 + 2 * i);
    const objects: string[] = [
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`,
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
      '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>',
      `<< /Title ${infoString(this.info.title)} /Author ${infoString(this.info.author)} /Subject ${infoString(this.info.subject)} /Creator ${infoString(this.info.creator)} /Producer (Agency API) /CreationDate (${pdfDate(this.info.created)}) >>`,
    ];
    this.pages.forEach((operations, i) => {
      const content = operations.join('\n');
      objects.push(
        `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${number(width)} ${number(height)}] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents ${pageIds[i]! + 1} 0 R >>`,
        `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`,
      );
    });
    // Every byte above is ASCII; the comment's high bytes tell tools the file is binary.
    const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
    let offset = parts[0]!.length;
    const offsets = objects.map((body, i) => {
      const chunk = Buffer.from(`${i + 1} 0 obj\n${body}\nendobj\n`, 'latin1');
      parts.push(chunk);
      const at = offset;
      offset += chunk.length;
      return at;
    });
    const xref = [`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`, ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`)].join('');
    parts.push(Buffer.from(`${xref}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 5 0 R >>\nstartxref\n${offset}\n%%EOF\n`, 'latin1'));
    return Buffer.concat(parts);
  }
}
