export default async function globalTeardown() {
  await Promise.all((globalThis.__EMULATORS__ ?? []).map((emulator) => emulator.stop()));
}
