import { DOCUMENT_KINDS, documentKey, isKeyOf } from '../../functions/core/documents/kinds.js';
import { reportKey } from '../../functions/core/clinical-interview/reports.js';

const PREFIXES = Object.values(DOCUMENT_KINDS).map((k) => k.prefix);

describe('document kinds', () => {
  it('each has a prefix of its own: no prefix begins another, so a grant under one never reaches another', () => {
    for (const [i, a] of PREFIXES.entries()) {
      expect(a).toMatch(/^[a-z0-9-]+(\/[a-z0-9-]+)*\/$/);
      PREFIXES.forEach((b, j) => i !== j && expect(b.startsWith(a)).toBe(false));
    }
  });

  it('a key lies under its kind prefix, and a key that climbs out of it is not the kind', () => {
    expect(documentKey('interview-reports', 'client-1', '7.pdf')).toBe('interview-reports/client-1/7.pdf');
    expect(reportKey('client-1', 7)).toBe('interview-reports/client-1/7.pdf');
    expect(isKeyOf('interview-reports', 'interview-reports/client-1/7.pdf')).toBe(true);
    expect(isKeyOf('interview-reports', 'interview-reports/../evidence/x')).toBe(false);
    expect(isKeyOf('interview-reports', 'interview-reportsx/a.pdf')).toBe(false);
  });
});
