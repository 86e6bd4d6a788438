// ESLint (flat config): TypeScript rules, promises that are awaited or handled, and Nx
// module boundaries by the projects' tags: an app depends only on libs of its own scope
// or `scope:shared`; contracts depend on nothing but contracts; utilities on contracts
// and utilities. The workspace's commands (tools/**/*.js) and the finance console's
// browser script are JavaScript checked with JSDoc types: the same rules, with the type
// information of their own tsconfig (tsconfig.tools.json, tsconfig.console.json).
// `npm test` runs it with --max-warnings 0.
const nx = require('@nx/eslint-plugin');
const tseslint = require('typescript-eslint');

const SERVICES = ['gateway', 'users', 'search', 'rates', 'booking', 'promo', 'accounting', 'webhooks'];

/** The JavaScript that is linted (and type-checked): every other .js is configuration or built. */
const TOOLS_JS = ['tools/**/*.js'];
const CONSOLE_JS = ['apps/gateway/src/finance-console/static/*.js'];

/** The rules of every linted file that need its types. */
const TYPED_RULES = {
  '@typescript-eslint/no-floating-promises': 'error',
  // A leading underscore marks what is left out on purpose (an unused handler argument, a field dropped by a rest pattern).
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true }],
  '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
};

module.exports = tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.data/**', '.nx/**', 'coverage/**', '**/*.js', ...TOOLS_JS.map((glob) => `!${glob}`), ...CONSOLE_JS.map((glob) => `!${glob}`)] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { '@nx': nx },
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: __dirname },
    },
    rules: {
      ...TYPED_RULES,
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
  {
    // Plain Node scripts (CommonJS: require is how they load modules), run before any build.
    files: TOOLS_JS,
    languageOptions: {
      sourceType: 'commonjs',
      parserOptions: { project: './tsconfig.tools.json', tsconfigRootDir: __dirname },
    },
    rules: { ...TYPED_RULES, '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // The browser script the gateway serves as it is (a classic script, no module).
    files: CONSOLE_JS,
    languageOptions: {
      sourceType: 'script',
      parserOptions: { project: './tsconfig.console.json', tsconfigRootDir: __dirname },
    },
    rules: TYPED_RULES,
  },
);
