import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLocked, lockDataDir, lockPath } from '../../lib/local/lock.js';

const dir = () => mkdtempSync(join(tmpdir(), 'lock-'));

it('a second stack on a locked data directory is refused and told who holds it', () => {
  const dataDir = dir();
  const first = lockDataDir(dataDir, 3000);
  first.listening(3100);
  const refused = (() => {
    try {
      lockDataDir(dataDir, 3001);
    } catch (err) {
      return err;
    }
  })();
  expect(refused).toBeInstanceOf(DataDirLocked);
  expect((refused as Error).message).toContain(`in use by the local stack of process ${process.pid} (port 3100`);
  first.release();
  expect(existsSync(lockPath(dataDir))).toBe(false);
  lockDataDir(dataDir, 3001).release();
});

it('a lock left by a process that is gone is taken over, and a stack never removes a lock it does not hold', () => {
  const dataDir = dir();
  const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  writeFileSync(lockPath(dataDir), JSON.stringify({ pid: Number(gone.stdout), port: 3000, started_at: '2026-11-01T00:00:00.000Z' }));
  const taken = lockDataDir(dataDir, 3002);
  expect(JSON.parse(readFileSync(lockPath(dataDir), 'utf8'))).toMatchObject({ pid: process.pid, port: 3002 });

  // Another holder's lock (here written over ours) survives our release.
  writeFileSync(lockPath(dataDir), JSON.stringify({ pid: process.pid, port: 4000, started_at: '2026-12-01T00:00:00.000Z' }));
  taken.release();
  expect(existsSync(lockPath(dataDir))).toBe(true);
});
