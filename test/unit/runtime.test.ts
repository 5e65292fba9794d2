import { readFileSync } from 'node:fs';

describe('the project brings its own Node', () => {
  it('runs the npm scripts (and so these tests) on the pinned node devDependency, not the machine Node', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
    expect(process.version).toBe(`v${pkg.devDependencies.node}`);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(24);
  });
});
