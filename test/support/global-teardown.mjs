export default async function globalTeardown() {
  await Promise.all((globalThis.__EMULATORS__ ?? []).map((emulator) => emulator.stop()));
  // The run's temporary folders: the test leaves none behind.
  if (globalThis.__RUN_TMPDIR__) {
    const { rmSync } = await import('node:fs');
    rmSync(globalThis.__RUN_TMPDIR__, { recursive: true, force: true });
  }
}
