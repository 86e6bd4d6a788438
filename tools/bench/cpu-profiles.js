// @ts-check
// What a CPU profile (.cpuprofile, V8's sampling profiler) says an app spent its time on:
// self time by package and by function, idle left out. `npm run bench -- --profile DIR`
// prints it for every app after each measured window.
const fs = require('node:fs');

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[], startTime: number, endTime: number }} CpuProfile
 * @typedef {{ name: string, ms: number, share: number }} Part
 * @typedef {{ busyMs: number, wallMs: number, gcShare: number, packages: Part[], functions: Part[] }} ProfileSummary
 */

/**
 * Where a frame's code comes from: a package, the platform's own code, Node's core, or V8.
 * @param {ProfileNode['callFrame']} frame
 */
function originOf(frame) {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith('(') ? functionName : 'V8 built-ins';
  const inPackage = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
  if (inPackage) return inPackage[1];
  if (url.startsWith('node:')) return 'node core';
  const own = /dist\/(apps|libs)\/([^/]+)/.exec(url);
  if (own) return own[1] === 'apps' ? `app: ${own[2]}` : `@hotel/${own[2]}`;
  return url;
}

/**
 * Self time by package and by function (shares of the busy time: idle excluded).
 * @param {CpuProfile} profile
 * @param {number} [top] functions and packages listed
 * @returns {ProfileSummary}
 */
function summarizeProfile(profile, top = 8) {
  /** @type {Map<number, ProfileNode>} */
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} microseconds of self time per node */
  const self = new Map();
  for (let i = 0; i < profile.samples.length; i++) self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  /** @type {Map<string, number>} */
  const byPackage = new Map();
  /** @type {Map<string, number>} */
  const byFunction = new Map();
  let busy = 0;
  let gc = 0;
  for (const [id, us] of self) {
    const frame = /** @type {ProfileNode} */ (nodes.get(id)).callFrame;
    if (frame.functionName === '(idle)') continue;
    busy += us;
    if (frame.functionName === '(garbage collector)') gc += us;
    const origin = originOf(frame);
    byPackage.set(origin, (byPackage.get(origin) ?? 0) + us);
    const where = frame.url ? ` ${frame.url.replace(/^.*(node_modules\/|dist\/)/, '')}:${frame.lineNumber + 1}` : '';
    const name = `${frame.functionName || '(anonymous)'}${where}`;
    byFunction.set(name, (byFunction.get(name) ?? 0) + us);
  }
  /** @param {Map<string, number>} map */
  const ranked = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: busy ? us / busy : 0 }));
  return { busyMs: busy / 1000, wallMs: (profile.endTime - profile.startTime) / 1000, gcShare: busy ? gc / busy : 0, packages: ranked(byPackage), functions: ranked(byFunction) };
}

/**
 * The summary of one .cpuprofile file, as lines of text. The profiler samples on wall time
 * (a process waiting for a core is sampled where it waits), so the shares are of the
 * profiled time, and the CPU itself is what /proc said (`cpuMsPerOp`).
 * @param {string} file
 * @param {string} label
 * @param {number} [cpuMsPerOp] the app's CPU ms per operation in the window, from /proc
 */
function describeProfile(file, label, cpuMsPerOp) {
  const summary = summarizeProfile(JSON.parse(fs.readFileSync(file, 'utf8')));
  const percent = (/** @type {number} */ share) => `${(share * 100).toFixed(1)}%`.padStart(6);
  const cpu = cpuMsPerOp === undefined ? '' : `${cpuMsPerOp.toFixed(2)} ms of CPU per operation; `;
  return [
    `${label}: ${cpu}garbage collection ${percent(summary.gcShare).trim()} of its samples (${file})`,
    `  by package: ${summary.packages.map((part) => `${part.name} ${percent(part.share).trim()}`).join(', ')}`,
    ...summary.functions.map((part) => `  ${percent(part.share)}  ${part.name}`),
  ];
}

module.exports = { summarizeProfile, describeProfile, originOf };
