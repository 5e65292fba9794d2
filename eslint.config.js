import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// `npm run lint`: ESLint's and typescript-eslint's recommended type-checked rules (decision 26).
export default tseslint.config(
  {
    ignores: [
      // Output, local data and files a tool writes (the typed clients are openapi-typescript's, compared byte for byte).
      'node_modules/',
      'cdk.out/',
      '.data/',
      '.data-*/',
      'coverage/',
      '.bench/',
      '.scratch/',
      'clients/typescript/dist/',
      'clients/typescript/src/generated/',
      // Plain JavaScript outside the TypeScript project (jest set-up, CI helpers, this file).
      '**/*.cjs',
      '**/*.mjs',
      '**/*.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  { languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } } },
  {
    rules: {
      // Dropping fields by destructuring (`const { pk, sk, ...item } = row`) and `_`-named placeholders are the house idiom.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { ignoreRestSiblings: true, argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // `async` marks an implementation of an async contract (a handler, a scanner, a mailer, a transaction's callback)
      // whose throw must reject rather than escape synchronously, even when it has nothing to await.
      '@typescript-eslint/require-await': 'off',
    },
  },
  {
    // The OpenAPI builders walk and rewrite JSON Schema trees made by @valibot/to-json-schema, typed `any` as JSON;
    // the documents they build are checked by the OpenAPI tests (Spectral lint, every example parsed by its schema).
    files: ['functions/api/openapi.ts', 'functions/api/openapi-answers.ts', 'functions/api/openapi-schemas.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
    },
  },
  {
    // The benchmark, as the tests: it reads the API's JSON answers for a field or two to drive the next request,
    // and what it measures is time and counts, not those bodies.
    files: ['test/**', 'bin/bench.ts', 'lib/bench/**'],
    rules: {
      // Tests read JSON answers, OpenAPI documents and SDK items whose shape the assertions themselves check;
      // typing every body first would add casts, not safety.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Test tables and emulator handles pass functions around (`book`, `stop`); none of them reads `this`.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
);
