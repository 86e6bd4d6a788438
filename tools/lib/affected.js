// @ts-check
// Which test files a change can break (`npm test -- --affected [REF]`): the tests that
// import a changed module, directly or through others (Jest's own dependency graph,
// `--findRelatedTests`), plus what that graph cannot see:
// - a test that reads or runs a file by its name (a document, a manifest, a script it
//   spawns) names it: a test whose text names a changed file's name is affected, and for
//   a file that is not code, a test that names its folder (`docs/`, 'deploy') or its kind
//   ('.md') too, since such tests walk a folder or pick files by their extension;
// - a test that runs the built platform (dist/, itself or through a script it spawns)
//   is affected by any change to an app's or a library's code;
// - a change to the workspace's configuration (dependencies, compiler, Jest, the test
//   and build scripts, CI) can break anything: every test runs.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { ROOT } = require('./workspace');

/** Files whose change reaches every test. */
const WORKSPACE_CONFIG = [
  /^package(-lock)?\.json$/,
  /^nx\.json$/,
  /^jest\.config\.js$/,
  /^tsconfig[^/]*\.json$/,
  /^eslint\.config\.[cm]?js$/,
  /^\.ci\//,
  /^tools\/(test|build)\.js$/,
  /^tools\/lib\/workspace\.js$/,
];
const TEST_FILE = /\.(spec|service-spec|e2e-spec)\.ts$/;
/** Code of the apps and libraries, which the build turns into dist/. */
const PLATFORM_CODE = /^(apps|libs)\/.+\.(ts|js|json|html|css)$/;
/** A test (or a script it runs) that starts the built platform names dist/. */
const RUNS_THE_BUILD = /\bdist\/|['"]dist['"]/;
/** A tools script a test runs: `tools/<name>.js`, or a name ending in .js. */
const SCRIPT_NAME = /\b([\w-]+\.js)\b/g;
/** Names too common to mean one file. */
const GENERIC_NAMES = new Set(['index.ts', 'index.js', 'main.ts', 'package.json', 'project.json']);

/**
 * @typedef {object} Selection
 * @property {boolean} everything every test, because of `reason`
 * @property {string} [reason]
 * @property {string[]} tests the affected test files (relative to the root), sorted
 */

/**
 * The tests a change reaches.
 * @param {object} input
 * @param {string[]} input.changed the changed files, relative to the root
 * @param {string[]} input.tests every test file, relative to the root
 * @param {(file: string) => string} input.read a file's text ('' when it is gone)
 * @param {string[]} input.related the tests Jest's dependency graph relates to the changed code
 * @returns {Selection}
 */
function selectAffectedTests({ changed, tests, read, related }) {
  const config = changed.find((file) => WORKSPACE_CONFIG.some((pattern) => pattern.test(file)));
  if (config) return { everything: true, reason: `${config} changed`, tests: [...tests].sort() };
  const selected = new Set(related.filter((test) => tests.includes(test)));
  for (const file of changed) if (TEST_FILE.test(file) && tests.includes(file)) selected.add(file);

  /** @type {Map<string, string>} */
  const texts = new Map(tests.map((test) => [test, read(test)]));
  const names = changed.map((file) => path.basename(file)).filter((name) => !GENERIC_NAMES.has(name));
  for (const [test, text] of texts) if (names.some((name) => text.includes(name))) selected.add(test);

  const folders = changed.filter((file) => !/\.(ts|js)$/.test(file)).flatMap(folderNames);
  for (const file of changed.filter((changedFile) => !/\.(ts|js)$/.test(changedFile) && path.extname(changedFile))) folders.push(`'${path.extname(file)}'`);
  for (const [test, text] of texts) if (folders.some((folder) => text.includes(folder))) selected.add(test);

  const platformChanged = changed.some((file) => PLATFORM_CODE.test(file) && !TEST_FILE.test(file));
  if (platformChanged) {
    for (const [test, text] of texts) if (runsTheBuild(text, read)) selected.add(test);
  }
  return { everything: false, tests: [...selected].sort() };
}

/**
 * How a test may name the folder of a file that is not code: its top folder as `docs/`,
 * 'docs' or "docs", and its whole folder path. Not for apps/ and libs/, which every test names.
 * @param {string} file
 */
function folderNames(file) {
  const directory = path.dirname(file);
  if (directory === '.') return [];
  const top = directory.split('/')[0];
  const whole = directory.includes('/') ? [directory] : [];
  return ['apps', 'libs'].includes(top) ? whole : [`${top}/`, `'${top}'`, `"${top}"`, ...whole];
}

/**
 * Whether a test (its text) runs the built platform: it names dist/, or a tools script it
 * runs does, itself or through the tools libraries it requires.
 * @param {string} text
 * @param {(file: string) => string} read
 */
function runsTheBuild(text, read) {
  const scripts = [...text.matchAll(SCRIPT_NAME)].map((match) => `tools/${match[1]}`).filter((script) => read(script) !== '');
  return RUNS_THE_BUILD.test(text) || scripts.some((script) => RUNS_THE_BUILD.test(read(script)) || scriptUsesTheBuild(script, read));
}

/**
 * Whether a tools script reaches dist/ through the tools libraries it requires.
 * @param {string} script
 * @param {(file: string) => string} read
 */
function scriptUsesTheBuild(script, read) {
  const libraries = [...read(script).matchAll(/require\('\.\/lib\/([\w-]+)'\)/g)].map((match) => `tools/lib/${match[1]}.js`);
  return libraries.some((library) => RUNS_THE_BUILD.test(read(library)));
}

/**
 * What changed since `ref` (committed, staged, in the work tree, and new files), relative to the root.
 * @param {string} ref
 */
function changedFiles(ref) {
  const git = (/** @type {string[]} */ ...args) => {
    const result = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
    return result.stdout.split('\n').filter(Boolean);
  };
  return [...new Set([...git('diff', '--name-only', ref), ...git('ls-files', '--others', '--exclude-standard')])].sort();
}

/** The base a change is measured from: where this branch left origin/main, or HEAD (what is not committed) without one. */
function defaultBase() {
  const remote = spawnSync('git', ['merge-base', 'HEAD', 'origin/main'], { cwd: ROOT, encoding: 'utf8' });
  return remote.status === 0 ? remote.stdout.trim() : 'HEAD';
}

/** Every test file of the Jest projects, relative to the root. */
function allTests() {
  const listed = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--listTests'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`jest --listTests: ${listed.stderr}`);
  return listed.stdout.split('\n').filter(Boolean).map((file) => path.relative(ROOT, file));
}

/**
 * The tests Jest's dependency graph relates to the changed code files.
 * @param {string[]} changed
 */
function relatedTests(changed) {
  const code = changed.filter((file) => /\.(ts|js)$/.test(file) && fs.existsSync(path.join(ROOT, file)));
  if (code.length === 0) return [];
  const listed = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/jest/bin/jest.js'), '--listTests', '--findRelatedTests', ...code], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`jest --findRelatedTests: ${listed.stderr}`);
  return listed.stdout.split('\n').filter(Boolean).map((file) => path.relative(ROOT, file));
}

/** @param {string} file */
function readFile(file) {
  try {
    return fs.readFileSync(path.join(ROOT, file), 'utf8');
  } catch {
    return '';
  }
}

/**
 * The selection for a change since `ref`, with what changed and whether a chosen test needs
 * the build (a system test, or one that runs the built platform).
 * @param {string} ref
 */
function affectedSince(ref) {
  const changed = changedFiles(ref);
  const selection = selectAffectedTests({ changed, tests: allTests(), read: readFile, related: relatedTests(changed) });
  const needsBuild = selection.tests.some((test) => test.endsWith('.e2e-spec.ts') || runsTheBuild(readFile(test), readFile));
  return { changed, needsBuild, ...selection };
}

module.exports = { selectAffectedTests, affectedSince, defaultBase, changedFiles };
