import type { BuildOptions } from 'esbuild';
import { join } from 'node:path';
import { PROJECT_ROOT } from './routes.js';
import { slimStripe } from './bundling/stripe.js';

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

/**
 * Modules swapped at bundling time, with why:
 *
 * - Node built-ins taken as CommonJS. An ESM import of `node:http` makes Node
 *   build a module facade that reads every export, lazy ones included, and
 *   `http`'s lazy WebSocket exports load undici: ~15 ms of each cold start (a
 *   median import of 52 ms went to 38 ms), for a client that never uses it.
 * - The SDK's event-stream codec (~15 KB minified, in every bundle through a
 *   dynamic import esbuild inlines): reached only for an operation with an
 *   event-stream member, which no DynamoDB or SQS call here has. A stub that
 *   throws stands in, so a future use fails loudly instead of silently.
 * - The SDK's endpoint-discovery middleware (~2 KB, and mnemonist's LRU
 *   cache, ~7 KB with its helpers, in every bundle): the DynamoDB client
 *   resolves its discovery settings and builds an endpoint cache for them,
 *   but none of its operations adds the middleware that would use either. A
 *   stub keeps the settings and leaves out the cache; the plugin getters
 *   throw, so a future SDK that uses them fails loudly
 *   (lib/bundling/no-endpoint-discovery.mjs).
 * - The SDK's default credential chain (~3 KB in every bundle, its lazily
 *   imported providers already left out above): Lambda puts the role's
 *   credentials in the environment, the chain's first link, so the bundles
 *   take that link alone; without them they fail loudly
 *   (lib/bundling/env-credentials.mjs).
 * - The SDK's hashes (~3.5 KB in every bundle, ~5 KB with SQS): SHA-256 and
 *   MD5 fall back to pure-JavaScript copies when Node has no crypto, which
 *   Lambda's always has. The stand-in is the SDK's checksum module with the
 *   two hashes on Node's crypto alone (lib/bundling/native-checksums.mjs);
 *   test/infra/bundled-handler.test.ts compares their digests with the SDK's.
 * - The Stripe SDK's client: it imports every resource of Stripe's API and
 *   builds each in its constructor, ~170 KB in each function that takes
 *   payments, of which the product calls two (checkout sessions, refunds;
 *   webhook signatures are no resource). The bundles take a copy of the SDK's
 *   own client module, written from the installed SDK at bundling, whose
 *   other resources are stand-ins that throw on use
 *   (lib/bundling/stripe.ts); test/infra/stripe-bundle.test.ts runs the
 *   bundled functions against the fake Stripe server.
 */
export const BUNDLE_ALIASES: Record<string, string> = {
  ...Object.fromEntries(
    ['http', 'https'].flatMap((name) => {
      const shim = join(PROJECT_ROOT, 'lib', 'bundling', `node-${name}.cjs`);
      return [
        [name, shim],
        [`node:${name}`, shim],
      ];
    }),
  ),
  '@smithy/core/event-streams': join(PROJECT_ROOT, 'lib', 'bundling', 'no-event-streams.mjs'),
  '@aws-sdk/middleware-endpoint-discovery': join(PROJECT_ROOT, 'lib', 'bundling', 'no-endpoint-discovery.mjs'),
  '@aws-sdk/credential-provider-node': join(PROJECT_ROOT, 'lib', 'bundling', 'env-credentials.mjs'),
  '@smithy/core/checksum': join(PROJECT_ROOT, 'lib', 'bundling', 'native-checksums.mjs'),
  stripe: slimStripe(PROJECT_ROOT),
};

export type BundleNeed = 'swagger-ui';

const modules = join(PROJECT_ROOT, 'node_modules');

/** Shell commands that put files a bundle reads at run time beside it; run after bundling, offline. */
export const BUNDLE_FILES: Record<BundleNeed, (out: string) => string[]> = {
  'swagger-ui': (out) => [
    `mkdir -p "${out}/swagger-ui"`,
    `cp "${join(modules, 'swagger-ui-dist', 'swagger-ui-bundle.js')}" "${join(modules, 'swagger-ui-dist', 'swagger-ui.css')}" "${out}/swagger-ui/"`,
  ],
};

/**
 * esbuild's own options (the benchmark and the bundling tests build with them; the CDK construct passes the same).
 *
 * With them, package.json's `sideEffects` counts: the project's modules are
 * free of side effects but for the ones it lists (job kinds that register
 * themselves when loaded), so a module none of whose exports a function
 * uses is left out of its bundle instead of run at every cold start (a
 * route module's schema files, say). test/infra/bundled-handler.test.ts
 * keeps the list whole.
 */
export const esbuildOptions = (): BuildOptions => ({
  bundle: true,
  platform: 'node',
  format: ESBUILD_BASE.format,
  target: ESBUILD_BASE.target,
  minify: ESBUILD_BASE.minify,
  mainFields: ESBUILD_BASE.mainFields,
  external: ESBUILD_BASE.external,
  alias: BUNDLE_ALIASES,
  banner: { js: ESBUILD_BASE.banner },
  logLevel: 'silent',
});
