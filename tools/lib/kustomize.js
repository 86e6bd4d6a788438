// @ts-check
// `kustomize build` of the subset deploy/ uses, in plain JavaScript, so that the overlays
// are rendered and validated where no kubectl or kustomize binary can be installed (CI
// reaches only the npm registry and Debian, whose kubectl is too old). Anything outside
// the subset is refused, never ignored, so the result cannot silently differ from
// kustomize's; where kubectl is installed, tools/deploy.spec.ts also compares the two.
//
// The subset: resources (files and directories), namespace, images, patches (JSON 6902,
// inline or from a file, with a target by kind, name and labelSelector), and
// configMapGenerator from files with the name hash disabled.
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const FIELDS = new Set(['apiVersion', 'kind', 'resources', 'namespace', 'images', 'patches', 'configMapGenerator', 'generatorOptions']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'StorageClass', 'PersistentVolume']);

/**
 * A Kubernetes object as read from YAML: the fields kustomize reads, and any others.
 * @typedef {{ apiVersion: string, kind: string, metadata: { name: string, namespace?: string, labels?: Record<string, string> } } & Record<string, unknown>} KubeObject
 */
/** @typedef {{ kind?: string, name?: string, labelSelector?: string }} Target */
/** @typedef {{ path?: string, patch?: string, target?: Target }} Patch */
/** @typedef {{ name: string, newName?: string, newTag?: string, digest?: string }} Image */
/** @typedef {{ disableNameSuffixHash?: boolean, labels?: Record<string, string> }} GeneratorOptions */
/** @typedef {{ name: string, files?: string[], options?: GeneratorOptions }} ConfigMapGenerator */
/** @typedef {{ op: string, path: string, value?: unknown }} Operation */
/**
 * A kustomization.yaml, as far as the subset goes (readKustomization refuses other fields).
 * @typedef {object} Kustomization
 * @property {string[]} [resources]
 * @property {string} [namespace]
 * @property {Image[]} [images]
 * @property {Patch[]} [patches]
 * @property {ConfigMapGenerator[]} [configMapGenerator]
 * @property {GeneratorOptions} [generatorOptions]
 */

/**
 * @param {string} where
 * @param {string} what
 * @returns {never}
 */
function refuse(where, what) {
  throw new Error(`${where}: ${what} is outside the kustomize subset of tools/lib/kustomize.js (use kubectl kustomize)`);
}

/**
 * Every document of a YAML file, as plain objects (the empty ones dropped).
 * @param {string} file
 * @returns {KubeObject[]}
 */
function readObjects(file) {
  return YAML.parseAllDocuments(fs.readFileSync(file, 'utf8'))
    .map((document) => {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors[0].message}`);
      return document.toJSON();
    })
    .filter((object) => object !== null && object !== undefined);
}

/** @param {string} dir */
function readKustomization(dir) {
  const file = ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].map((name) => path.join(dir, name)).find((name) => fs.existsSync(name));
  if (!file) throw new Error(`${dir}: no kustomization.yaml`);
  /** @type {Kustomization} */
  const kustomization = YAML.parse(fs.readFileSync(file, 'utf8'));
  for (const field of Object.keys(kustomization)) if (!FIELDS.has(field)) refuse(file, `the field "${field}"`);
  return { file, kustomization };
}

/**
 * @param {string} dir
 * @param {string} file
 * @param {Kustomization} kustomization
 * @returns {KubeObject[]}
 */
function generateConfigMaps(dir, file, kustomization) {
  return (kustomization.configMapGenerator ?? []).map((generator) => {
    const options = { ...kustomization.generatorOptions, ...generator.options };
    if (options.disableNameSuffixHash !== true) refuse(file, 'a generator with a name hash');
    for (const field of Object.keys(generator)) if (!['name', 'files', 'options'].includes(field)) refuse(file, `configMapGenerator.${field}`);
    /** @type {Record<string, string>} */
    const data = {};
    for (const entry of generator.files ?? []) {
      const [key, source] = entry.includes('=') ? entry.split('=', 2) : [path.basename(entry), entry];
      data[key] = fs.readFileSync(path.join(dir, source), 'utf8');
    }
    const metadata = { name: generator.name, ...(options.labels && { labels: options.labels }) };
    return { apiVersion: 'v1', kind: 'ConfigMap', metadata, data };
  });
}

/**
 * @param {KubeObject} object
 * @param {Target} target
 */
function matchesTarget(object, target) {
  if (target.kind !== undefined && object.kind !== target.kind) return false;
  // kustomize reads a target's name as an anchored regular expression.
  if (target.name !== undefined && !new RegExp(`^(?:${target.name})$`).test(object.metadata.name)) return false;
  if (target.labelSelector !== undefined) {
    const labels = object.metadata.labels ?? {};
    for (const term of target.labelSelector.split(',')) {
      const [key, value] = term.split('=').map((part) => part.trim());
      if (labels[key] !== value) return false;
    }
  }
  return true;
}

/**
 * RFC 6901: "/a/b~1c" → ["a", "b/c"].
 * @param {string} where
 * @param {string} text
 */
function pointer(where, text) {
  if (!text.startsWith('/')) throw new Error(`${where}: "${text}" is not a JSON pointer`);
  return text.slice(1).split('/').map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * One JSON 6902 operation (add, replace or remove), applied in place.
 * @param {string} where
 * @param {KubeObject} object
 * @param {Operation} operation
 */
function applyOperation(where, object, operation) {
  const keys = pointer(where, operation.path);
  // A pointer has one key at least ("/" is the key "").
  const last = /** @type {string} */ (keys.pop());
  /** @type {unknown} */
  let parent = object;
  for (const key of keys) {
    // (Never null or undefined here: the object, or what the check below let through.)
    parent = /** @type {Record<string, unknown>} */ (parent)[Array.isArray(parent) ? Number(key) : key];
    if (parent === undefined || parent === null) throw new Error(`${where}: ${operation.path} does not exist in ${object.kind}/${object.metadata.name}`);
  }
  // What the pointer leads into: an object or an array (in a well-formed patch).
  const container = /** @type {Record<string, unknown> | unknown[]} */ (parent);
  const index = Array.isArray(container) ? (last === '-' ? container.length : Number(last)) : last;
  const exists = Array.isArray(container) ? Number(index) < container.length : Object.prototype.hasOwnProperty.call(container, index);
  switch (operation.op) {
    case 'add':
      if (Array.isArray(container)) container.splice(Number(index), 0, structuredClone(operation.value));
      else container[index] = structuredClone(operation.value);
      return;
    case 'replace':
    case 'remove':
      if (!exists) throw new Error(`${where}: ${operation.op} of ${operation.path}, which ${object.kind}/${object.metadata.name} does not have`);
      // (An array's element is set by its index as an object's field by its key.)
      if (operation.op === 'replace') /** @type {Record<string, unknown>} */ (container)[index] = structuredClone(operation.value);
      else if (Array.isArray(container)) container.splice(Number(index), 1);
      else delete container[index];
      return;
    default:
      refuse(where, `the JSON patch operation "${operation.op}"`);
  }
}

/**
 * @param {string} dir
 * @param {string} file
 * @param {KubeObject[]} objects
 * @param {Patch} patch
 */
function applyPatch(dir, file, objects, patch) {
  for (const field of Object.keys(patch)) if (!['path', 'patch', 'target'].includes(field)) refuse(file, `patches[].${field}`);
  const target = patch.target;
  if (!target) refuse(file, 'a patch without a target (strategic merge)');
  /** @type {unknown} */
  const operations = YAML.parse(patch.path ? fs.readFileSync(path.join(dir, patch.path), 'utf8') : /** @type {string} */ (patch.patch));
  if (!Array.isArray(operations)) refuse(file, 'a strategic merge patch');
  for (const object of objects.filter((candidate) => matchesTarget(candidate, target))) {
    for (const operation of operations) applyOperation(file, object, operation);
  }
}

/**
 * kustomize's images transformer: every container image named `name` gets the new name and tag.
 * @param {unknown} value
 * @param {Image} image
 */
function setImage(value, image) {
  if (Array.isArray(value)) value.forEach((item) => setImage(item, image));
  else if (value && typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) {
      if ((key === 'containers' || key === 'initContainers') && Array.isArray(child)) {
        for (const container of /** @type {{ image: string }[]} */ (child)) {
          const match = /^([^:@]+(?::\d+\/[^:@]+)?)(?:[:@](.*))?$/.exec(container.image);
          if (!match) throw new Error(`"${container.image}" is not an image reference`);
          const [name, tag] = match.slice(1);
          if (name !== image.name) continue;
          const newTag = image.digest ? `@${image.digest}` : image.newTag ? `:${image.newTag}` : tag ? `:${tag}` : '';
          container.image = `${image.newName ?? name}${newTag}`;
        }
      } else setImage(child, image);
    }
  }
}

/**
 * The objects `kustomize build dir` makes, in the order of their resources.
 * @param {string} dir
 * @returns {KubeObject[]}
 */
function build(dir) {
  const { file, kustomization } = readKustomization(dir);
  /** @type {KubeObject[]} */
  const objects = [];
  for (const resource of kustomization.resources ?? []) {
    const target = path.resolve(dir, resource);
    objects.push(...(fs.statSync(target).isDirectory() ? build(target) : readObjects(target)));
  }
  objects.push(...generateConfigMaps(dir, file, kustomization));
  const ids = new Set();
  for (const object of objects) {
    const id = `${object.apiVersion}/${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
    if (ids.has(id)) throw new Error(`${file}: ${id} is defined twice`);
    ids.add(id);
  }
  for (const patch of kustomization.patches ?? []) applyPatch(dir, file, objects, patch);
  if (kustomization.namespace) {
    for (const object of objects) if (!CLUSTER_SCOPED.has(object.kind)) object.metadata.namespace = kustomization.namespace;
  }
  for (const image of kustomization.images ?? []) objects.forEach((object) => setImage(object, image));
  return objects;
}

module.exports = { build, readObjects };

if (require.main === module) {
  const dir = process.argv[2];
  if (!dir) {
    process.stderr.write('usage: node tools/lib/kustomize.js DIR   (prints the build as YAML, like kubectl kustomize DIR)\n');
    process.exit(2);
  }
  process.stdout.write(build(dir).map((object) => YAML.stringify(object)).join('---\n'));
}
