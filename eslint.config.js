// ESLint (flat config): TypeScript rules, promises that are awaited or handled, and Nx
// module boundaries by the projects' tags: an app depends only on libs of its own scope
// or `scope:shared`; contracts depend on nothing but contracts; utilities on contracts
// and utilities. `npm test` runs it with --max-warnings 0.
const nx = require('@nx/eslint-plugin');
const tseslint = require('typescript-eslint');

const SERVICES = ['gateway', 'users', 'search', 'rates', 'booking', 'promo', 'accounting', 'webhooks'];

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '.nx/**', 'coverage/**', '**/*.js'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: __dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      // A leading underscore marks what is left out on purpose (an unused handler argument, a field dropped by a rest pattern).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:contracts'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:util'] },
            // The partners' SDK ships alone: no workspace lib, no package.
            { sourceTag: 'type:sdk', onlyDependOnLibsWithTags: [], allowedExternalImports: [] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
            ...SERVICES.map((scope) => ({ sourceTag: `scope:${scope}`, onlyDependOnLibsWithTags: [`scope:${scope}`, 'scope:shared'] })),
          ],
        },
      ],
    },
  },
  {
    // Tests read JSON answers of any shape.
    files: ['**/*.spec.ts', '**/*.service-spec.ts', '**/*.e2e-spec.ts', 'apps/*/test/**/*.ts', 'libs/testing/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The system tests start every service in this one process, through each app's own module.
    files: ['apps/gateway/test/**/*.ts', 'tools/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
);
