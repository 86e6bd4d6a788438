/** One Jest run for the whole workspace: unit specs beside the code, system tests under apps/<app>/test. */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
};

module.exports = {
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/tools'],
  testMatch: ['**/*.spec.ts', '**/*.e2e-spec.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: {
    '^@hotel/(contracts|platform|testing|inventory)$': '<rootDir>/libs/$1/src/index.ts',
  },
  setupFiles: ['reflect-metadata'],
  testTimeout: 60_000,
  // Each system test file boots the platform; two at a time suit two cores.
  maxWorkers: 2,
};
