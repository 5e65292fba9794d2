// Preloaded with --import (after tsx): appends every module the process loads to the file
// named by RECORD_LOADS_FILE, ES modules as the loader hook sees them and CommonJS modules
// from require's cache at exit. test/infra/synth.test.ts reads the list.
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.RECORD_LOADS_FILE;

// Runs on the loader thread, ahead of tsx's hooks (the last registered runs first).
export async function load(url, context, nextLoad) {
  appendFileSync(file, url + '\n');
  return nextLoad(url, context);
}

if (isMainThread) {
  if (!file) throw new Error('RECORD_LOADS_FILE is not set');
  register(import.meta.url);
  process.on('exit', () => appendFileSync(file, Object.keys(createRequire(import.meta.url).cache).join('\n') + '\n'));
}
