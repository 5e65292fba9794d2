import { A4, TextDocument, toWinAnsi, widthOf, wrap } from '../../functions/core/documents/pdf-text.js';

const info = { title: 'T', author: 'A', subject: 'S', creator: 'C', created: new Date('2026-11-22T09:30:00Z') };
const body = { weight: 'regular', size: 11, color: '#000' } as const;

/** Checks what a reader relies on: every cross-reference offset lands on its object, and startxref on the table. */
function checkStructure(pdf: Buffer): string {
  const text = pdf.toString('latin1');
  expect(text.startsWith('%PDF-1.4\n')).toBe(true);
  expect(text.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(text)![1]);
  expect(text.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, count] = /^xref\n0 (\d+)\n/.exec(text.slice(startxref))!;
  const entries = text
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count));
  expect(entries[0]).toBe('0000000000 65535 f ');
  entries.slice(1).forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    const offset = Number(entry.slice(0, 10));
    expect(text.slice(offset, offset + `${i + 1} 0 obj`.length)).toBe(`${i + 1} 0 obj`);
  });
  expect(text).toContain(`/Size ${count} /Root 1 0 R /Info 5 0 R`);
  for (const [, length, stream] of text.matchAll(/<< \/Length (\d+) >>\nstream\n([\s\S]*?)\nendstream/g)) {
    expect(Buffer.byteLength(stream!, 'latin1')).toBe(Number(length));
  }
  return text;
}

describe('the text PDF writer', () => {
  it('writes a PDF whose cross-reference table and stream lengths are exact', () => {
    const doc = new TextDocument({ ...A4, margin: 56 }, info).text('Employment reference', { weight: 'bold', size: 18, color: '#000' }).text('Body', body);
    const text = checkStructure(doc.toBuffer());
    expect(text).toContain('/MediaBox [0 0 595.28 841.89]');
    expect(text).toContain('/F2 18 Tf 0 0 0 rg 56 772.97 Td (Employment reference) Tj');
    expect(text).toContain('/CreationDate (D:20261122093000Z)');
  });

  it('escapes the string delimiters and writes accents and typographic marks in WinAnsi; what it cannot show becomes ?', () => {
    const text = new TextDocument({ ...A4, margin: 56 }, info).text('(a) b\\c Zoë’s “café” – €5 Łukasz', body).toBuffer().toString('latin1');
    expect(text).toContain('(\\(a\\) b\\\\c Zo\\353\\222s \\223caf\\351\\224 \\226 \\2005 ?ukasz) Tj');
    expect(toWinAnsi('£\t€\u0085')).toEqual([0xa3, 32, 0x80, 63]);
  });

  it('puts a title it cannot write in plain ASCII in UTF-16', () => {
    const text = new TextDocument({ ...A4, margin: 56 }, { ...info, title: 'Zoë' }).toBuffer().toString('latin1');
    expect(text).toContain('/Title <FEFF005A006F00EB>');
  });

  it('wraps at spaces within the width, keeps every word, and breaks a word wider than the line', () => {
    const words = 'She led the ward through a very difficult winter with calm and care.'.repeat(5).split(' ');
    const lines = wrap(words.join(' '), 'regular', 11, 200);
    expect(lines.length).toBeGreaterThan(5);
    for (const line of lines) expect(widthOf(line, 'regular', 11)).toBeLessThanOrEqual(200);
    expect(lines.map((l) => Buffer.from(l).toString('latin1')).join(' ')).toBe(words.join(' '));
    const long = wrap('x'.repeat(200), 'bold', 11, 100);
    expect(long.length).toBeGreaterThan(1);
    expect(long.flat()).toHaveLength(200);
    expect(wrap('one\ntwo', 'regular', 11, 500).map((l) => Buffer.from(l).toString())).toEqual(['one', 'two']);
  });

  it('starts a new page when the text reaches the bottom margin', () => {
    const doc = new TextDocument({ ...A4, margin: 56 }, info);
    for (let i = 0; i < 60; i++) doc.text(`Line ${i}`, body);
    expect(doc.pageCount).toBe(2);
    const text = checkStructure(doc.toBuffer());
    expect(text).toContain('/Kids [6 0 R 8 0 R] /Count 2');
    // Nothing is drawn below the bottom margin.
    const baselines = [...text.matchAll(/ rg 56 ([\d.]+) Td/g)].map((m) => Number(m[1]));
    expect(baselines).toHaveLength(60);
    expect(Math.min(...baselines)).toBeGreaterThanOrEqual(56);
  });
});
