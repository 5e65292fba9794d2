import { build } from 'esbuild';
import { esbuildOptions } from '/work/main/lib/bundling.js';
import { handlerEntry } from '/work/main/lib/routes.js';
const entry = process.argv[2]!.endsWith('.ts') ? process.argv[2]! : handlerEntry({ handler: process.argv[2]! });
const r = await build({ ...esbuildOptions(), entryPoints: [entry], outfile: '/tmp/meta-out.mjs', metafile: true, write: false });
const out = Object.values(r.metafile.outputs)[0]!;
const rows = Object.entries(out.inputs).filter(([f]) => !f.includes('node_modules')).sort((a, b) => b[1].bytesInOutput - a[1].bytesInOutput).slice(0, 25);
let app = 0; for (const [f, v] of Object.entries(out.inputs)) if (!f.includes('node_modules')) app += v.bytesInOutput;
console.log('app bytes', app, 'total', out.bytes);
for (const [f, v] of rows) console.log(v.bytesInOutput, f);
const mods: Record<string, number> = {};
for (const [f, v] of Object.entries(out.inputs)) if (f.includes('node_modules')) { const p = f.split('node_modules/').pop()!; const k = p.startsWith('@') ? p.split('/').slice(0, 2).join('/') : p.split('/')[0]!; mods[k] = (mods[k] ?? 0) + v.bytesInOutput; }
console.log(Object.entries(mods).sort((a, b) => b[1] - a[1]).slice(0, 12).map(([k, v]) => `${k} ${v}`).join('; '));
