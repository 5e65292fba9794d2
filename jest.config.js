// ESM all the way down: middy 7 and fauxqs ship only ESM. Type checking runs
// separately (`tsc --noEmit` in `npm test`), so ts-jest only transpiles.
const base = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, diagnostics: false }],
  },
};

// Jest runs a project's global setup only when a test of that project is
// selected, and the same module once however many projects name it: one pair
// of emulators for the tiers that need them, none for `unit`.
const emulators = {
  globalSetup: '<rootDir>/test/support/global-setup.mjs',
  globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
};

const tier = (name, extra) => ({ ...base, ...extra, displayName: name, testMatch: [`<rootDir>/test/${name}/**/*.test.ts`] });

export default {
  projects: [
    tier('unit', { setupFiles: ['<rootDir>/test/support/unit-setup.ts'] }),
    tier('integration', emulators),
    tier('e2e', emulators),
    // The bundled-handler test runs a bundle against DynamoDB Local.
    tier('infra', emulators),
  ],
  maxWorkers: 2,
  // Generous: e2e tests drive a whole local stack, and CI machines are shared
  // (a stack's start took over 60 s with both cores busy). A hang still fails.
  testTimeout: 120000,
};
