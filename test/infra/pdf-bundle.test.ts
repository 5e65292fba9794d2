import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { esbuildOptions } from '../../lib/bundling.js';
import { PROJECT_ROOT } from '../../lib/routes.js';

/**
 * The PDF function as it is deployed: bundled with the deployment's options,
 * run from a folder with no node_modules. It must still render a reference,
 * and no PDF library may creep back into it.
 */
it('the bundled reference PDF function renders a reference from a folder laid out like its Lambda asset', async () => {
  const out = mkdtempSync(join(tmpdir(), 'pdf-asset-'));
  const handler = await build({
    ...esbuildOptions(),
    entryPoints: [join(PROJECT_ROOT, 'functions/http/portal-v2/references-pdf.ts')],
    outfile: join(out, 'handler.mjs'),
    metafile: true,
  });
  expect(Object.keys(handler.metafile.inputs).filter((f) => /node_modules\/(pdfkit|fontkit|pdf-lib|jspdf)\//.test(f))).toEqual([]);

  const entry = join(out, 'entry.ts');
  writeFileSync(
    entry,
    `import { renderReferencePdf } from ${JSON.stringify(join(PROJECT_ROOT, 'functions/core/portal-v2/reference-pdf.ts'))};
const pdf = renderReferencePdf({
  agency: 'Northwind', template: { id: 1, name: 'T', description: '', questions: [{ id: 'q', kind: 'rating', label: 'Competence', required: true, weight: 1 }] },
  request: { candidate_name: 'Ada Nightingale', candidate_email: 'ada@example.org', uuid: 'r' },
  reference: { referee_name: 'Dr Jane Smith', referee_position: 'Matron', referee_organisation: 'NHS', referee_email: 'j@nhs.example', referee_phone: null,
    relationship_to_candidate: null, sent_at: null, submitted_at: '2026-11-03T15:30:00Z', score: 75, answers: { q: '4' }, uuid: 'x' },
});
process.stdout.write(pdf.toString('latin1'));`,
  );
  await build({ ...esbuildOptions(), entryPoints: [entry], outfile: join(out, 'index.mjs') });
  const pdf = execFileSync(process.execPath, [join(out, 'index.mjs')], { cwd: out, encoding: 'latin1' });
  expect(pdf.startsWith('%PDF-1.4')).toBe(true);
  expect(pdf).toContain('(Ada Nightingale <ada@example.org>) Tj');
  expect(pdf).toContain('(75 / 100 \\(weighted mean of the ratings\\)) Tj');
  expect(pdf).toContain('(4 / 5) Tj');
});
