import { join } from 'node:path';
import { PROJECT_ROOT } from './routes.js';

/**
 * How every function is bundled: one place, read by the CDK construct and by
 * the benchmark, so what is measured is what is deployed.
 */

export const ESBUILD_BASE = {
  format: 'esm' as const,
  target: 'node24',
  minify: true,
  mainFields: ['module', 'main'],
  // Some dependencies still call require(); give ESM bundles one.
  banner: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  /** The Lambda Node.js runtime ships the AWS SDK v3. */
  external: ['@aws-sdk/*'],
};

export type BundleNeed = 'pdf-fonts' | 'swagger-ui';

const modules = join(PROJECT_ROOT, 'node_modules');

/** Module aliases per need (esbuild --alias). */
export const BUNDLE_ALIASES: Record<BundleNeed, Record<string, string>> = {
  'pdf-fonts': { fontkit: join(PROJECT_ROOT, 'lib', 'bundling', 'fontkit-standard-fonts-only.mjs') },
  'swagger-ui': {},
};

/** Shell commands that put files a bundle reads at run time beside it; run after bundling, offline. */
export const BUNDLE_FILES: Record<BundleNeed, (out: string) => string[]> = {
  // pdfkit loads its standard fonts through createRequire and its package's `#standard-fonts/*` import map,
  // which a bundle cannot follow: the font modules go beside the bundle, with the same import map.
  'pdf-fonts': (out) => [
    `cp -r "${join(modules, 'pdfkit', 'js', 'standard-fonts')}" "${out}/standard-fonts"`,
    `echo '{"imports":{"#standard-fonts/*":"./standard-fonts/*.cjs"}}' > "${out}/package.json"`,
  ],
  'swagger-ui': (out) => [
    `mkdir -p "${out}/swagger-ui"`,
    `cp "${join(modules, 'swagger-ui-dist', 'swagger-ui-bundle.js')}" "${join(modules, 'swagger-ui-dist', 'swagger-ui.css')}" "${out}/swagger-ui/"`,
  ],
};

export const aliasesFor = (needs: BundleNeed[] = []): Record<string, string> => Object.assign({}, ...needs.map((n) => BUNDLE_ALIASES[n]));
