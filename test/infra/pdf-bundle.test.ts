import { build } from 'esbuild';
import { execFileSync, execSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_FILES, esbuildOptions } from '../../lib/bundling.js';
import { PROJECT_ROOT } from '../../lib/routes.js';

/**
 * The PDF function as it is deployed: bundled with the deployment's options
 * (fontkit aliased away), its font files beside it, run from a folder with no
 * node_modules. It must still render a reference.
 */
it('the bundled reference PDF renderer works from a folder laid out like its Lambda asset', async () => {
  const out = mkdtempSync(join(tmpdir(), 'pdf-asset-'));
  const entry = join(out, 'entry.ts');
  writeFileSync(
    entry,
    `import { renderReferencePdf } from ${JSON.stringify(join(PROJECT_ROOT, 'functions/core/reference-pdf.ts'))};
const pdf = await renderReferencePdf({
  agency: 'Northwind', template: { id: 1, name: 'T', description: '', questions: [{ id: 'q', kind: 'rating', label: 'Competence', required: true, weight: 1 }] },
  request: { candidate_name: 'Ada Nightingale', candidate_email: 'ada@example.org', uuid: 'r' },
  reference: { referee_name: 'Dr Jane Smith', referee_position: 'Matron', referee_organisation: 'NHS', referee_email: 'j@nhs.example', referee_phone: null,
    relationship_to_candidate: null, sent_at: null, submitted_at: null, score: 75, answers: { q: '4' }, uuid: 'x' },
});
process.stdout.write(pdf.subarray(0, 5).toString() + ' ' + pdf.length);`,
  );
  const result = await build({ ...esbuildOptions(['pdf-fonts']), entryPoints: [entry], outfile: join(out, 'index.mjs'), metafile: true });
  for (const command of BUNDLE_FILES['pdf-fonts'](out)) execSync(command);
  // This function takes the AWS SDK from the Lambda runtime; here a link stands in for the runtime's copy.
  mkdirSync(join(out, 'node_modules'));
  symlinkSync(join(PROJECT_ROOT, 'node_modules', '@aws-sdk'), join(out, 'node_modules', '@aws-sdk'));
  expect(Object.keys(result.metafile.inputs).some((f) => f.includes('node_modules/fontkit'))).toBe(false);
  expect(result.metafile.outputs[Object.keys(result.metafile.outputs).find((f) => f.endsWith('index.mjs'))!]!.bytes).toBeLessThan(250 * 1024);
  const printed = execFileSync(process.execPath, [join(out, 'index.mjs')], { cwd: out, encoding: 'utf8' });
  expect(printed).toMatch(/^%PDF- \d{4,}$/);
});
