import { readdirSync, readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
type Project = { displayName: string; globalSetup?: string; testMatch: string[] };

describe('the test tiers', () => {
  it('run every folder of tests as its own jest project, so `npm test` runs them all', async () => {
    const { default: config } = (await import(new URL('jest.config.js', root).href)) as { default: { projects: Project[]; globalSetup?: string } };
    const folders = readdirSync(new URL('test/', root), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name !== 'support')
      .map((d) => d.name);
    expect(config.projects.map((p) => p.displayName).sort()).toEqual(folders.sort());
    for (const p of config.projects) expect(p.testMatch).toEqual([`<rootDir>/test/${p.displayName}/**/*.test.ts`]);
    // Only the unit tier runs without the emulators' global setup, and none is set for the whole run.
    expect(config.globalSetup).toBeUndefined();
    expect(config.projects.filter((p) => !p.globalSetup).map((p) => p.displayName)).toEqual(['unit']);
  });

  it('keep unit tests away from the emulator wiring', () => {
    const files = readdirSync(new URL('test/unit/', root)).filter((f) => f.endsWith('.ts'));
    const wired = files.filter((f) => /from '\.\.\/support\/(env|local-stack|clinical)\.js'/.test(readFileSync(new URL(`test/unit/${f}`, root), 'utf8')));
    expect(wired).toEqual([]);
    // Even when another tier has started them, a unit test does not see them.
    expect(process.env.TEST_DYNAMODB_ENDPOINT).toBeUndefined();
  });
});
