import type { BuildOptions } from 'esbuild';
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
  /**
   * The SDK is bundled (tree-shaken, one file: ~40 % faster to load than the
   * runtime's copy). Left out: the credential providers the default chain
   * imports lazily and only when there are no credentials in the environment,
   * which Lambda always sets; should one ever be needed, the runtime's SDK has it.
   */
  external: [
    '@aws-sdk/credential-provider-ini',
    '@aws-sdk/credential-provider-sso',
    '@aws-sdk/credential-provider-process',
    '@aws-sdk/credential-provider-web-identity',
    '@aws-sdk/credential-provider-http',
    '@aws-sdk/token-providers',
    '@aws-sdk/nested-clients',
    '@smithy/credential-provider-imds',
  ],
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

/** Extra modules left out per need (esbuild --external). */
export const BUNDLE_EXTERNALS: Record<BundleNeed, string[]> = {
  // pdfkit alone is 180 KB: this function takes the SDK from the Lambda runtime to stay under 250 KB.
  // It is not on a hot path, and pdfkit's own load time dominates its cold start anyway.
  'pdf-fonts': ['@aws-sdk/*'],
  'swagger-ui': [],
};

export const aliasesFor = (needs: BundleNeed[] = []): Record<string, string> => Object.assign({}, ...needs.map((n) => BUNDLE_ALIASES[n]));

export const externalsFor = (needs: BundleNeed[] = []): string[] => [...ESBUILD_BASE.external, ...needs.flatMap((n) => BUNDLE_EXTERNALS[n])];

/** esbuild's own options for a function with these needs (the benchmark and the bundling tests build with them). */
export const esbuildOptions = (needs: BundleNeed[] = []): BuildOptions => ({
  bundle: true,
  platform: 'node',
  format: ESBUILD_BASE.format,
  target: ESBUILD_BASE.target,
  minify: ESBUILD_BASE.minify,
  mainFields: ESBUILD_BASE.mainFields,
  external: externalsFor(needs),
  banner: { js: ESBUILD_BASE.banner },
  alias: aliasesFor(needs),
  logLevel: 'silent',
});
