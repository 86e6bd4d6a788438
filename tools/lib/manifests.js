// @ts-check
// Validates rendered Kubernetes objects against their schemas, offline: the Kubernetes
// API's own OpenAPI schemas (npm kubernetes-models), the Prometheus Operator's and
// cert-manager's CRDs (npm @kubernetes-models/prometheus-operator, /cert-manager), and, as no package ships CloudNativePG's
// CRDs, a schema of the CloudNativePG fields deploy/ uses (below), strict about
// unknown fields. The first two check types, formats, enums and required fields, but
// not unknown fields (their schemas allow them).
// (The package is the class itself, and has it as `default` too, which its types declare.)
const Ajv = require('ajv').default;

const secretKey = {
  type: 'object',
  additionalProperties: false,
  required: ['name', 'key'],
  properties: { name: { type: 'string', minLength: 1 }, key: { type: 'string', minLength: 1 } },
};
const quantity = { type: 'string', pattern: '^[0-9]+(\\.[0-9]+)?(m|k|Ki|M|Mi|G|Gi|T|Ti)?$' };
const compression = { enum: ['bzip2', 'gzip', 'lz4', 'snappy', 'xz', 'zstd'] };
/**
 * An object schema that allows no other field.
 * @param {Record<string, object>} properties
 * @param {string[]} [required]
 */
const strict = (properties, required = []) => ({ type: 'object', additionalProperties: false, required, properties });
const stringMap = { type: 'object', additionalProperties: { type: 'string' } };

/** CloudNativePG's API (postgresql.cnpg.io/v1) and its Barman Cloud plugin's (barmancloud.cnpg.io/v1), as documented: the fields deploy/ uses. */
const CNPG_SPECS = {
  'postgresql.cnpg.io/v1/Cluster': strict(
    {
      instances: { type: 'integer', minimum: 1 },
      imageName: { type: 'string' },
      primaryUpdateStrategy: { enum: ['unsupervised', 'supervised'] },
      bootstrap: strict({ initdb: strict({ database: { type: 'string' }, owner: { type: 'string' }, secret: strict({ name: { type: 'string' } }, ['name']) }) }),
      postgresql: strict({ parameters: stringMap }),
      storage: strict({ size: quantity, storageClass: { type: 'string' } }, ['size']),
      affinity: strict({ enablePodAntiAffinity: { type: 'boolean' }, topologyKey: { type: 'string' }, podAntiAffinityType: { enum: ['preferred', 'required'] } }),
      resources: strict({ requests: { type: 'object', additionalProperties: quantity }, limits: { type: 'object', additionalProperties: quantity } }),
      plugins: {
        type: 'array',
        items: strict({ name: { type: 'string' }, enabled: { type: 'boolean' }, isWALArchiver: { type: 'boolean' }, parameters: stringMap }, ['name']),
      },
    },
    ['instances', 'storage'],
  ),
  'barmancloud.cnpg.io/v1/ObjectStore': strict(
    {
      retentionPolicy: { type: 'string', pattern: '^[1-9][0-9]*[dwm]$' },
      configuration: strict(
        {
          destinationPath: { type: 'string', pattern: '^(s3|gs)://|^https://' },
          endpointURL: { type: 'string' },
          s3Credentials: strict({ accessKeyId: secretKey, secretAccessKey: secretKey, region: secretKey, sessionToken: secretKey }),
          wal: strict({ compression, maxParallel: { type: 'integer', minimum: 1 } }),
          data: strict({ compression, jobs: { type: 'integer', minimum: 1 } }),
        },
        ['destinationPath'],
      ),
    },
    ['configuration'],
  ),
  'postgresql.cnpg.io/v1/ScheduledBackup': strict(
    {
      // Six fields, seconds first.
      schedule: { type: 'string', pattern: '^\\S+( \\S+){5}$' },
      cluster: strict({ name: { type: 'string' } }, ['name']),
      method: { enum: ['barmanObjectStore', 'volumeSnapshot', 'plugin'] },
      pluginConfiguration: strict({ name: { type: 'string' }, parameters: stringMap }, ['name']),
      backupOwnerReference: { enum: ['none', 'self', 'cluster'] },
      immediate: { type: 'boolean' },
      target: { enum: ['primary', 'prefer-standby'] },
    },
    ['schedule', 'cluster'],
  ),
};

const ajv = new Ajv({ allErrors: true });
const cnpgValidators = Object.fromEntries(
  Object.entries(CNPG_SPECS).map(([type, spec]) => [
    type,
    ajv.compile({
      type: 'object',
      required: ['apiVersion', 'kind', 'metadata', 'spec'],
      properties: { metadata: { type: 'object', required: ['name'] }, spec },
    }),
  ]),
);

/**
 * The kubernetes-models class of an apiVersion and kind, if there is one.
 * @param {string} apiVersion
 * @param {string} kind
 * @returns {(new (object: object) => { validate(): void }) | undefined}
 */
function modelClass(apiVersion, kind) {
  const modules = apiVersion.startsWith('monitoring.coreos.com/')
    ? [`@kubernetes-models/prometheus-operator/${apiVersion}/${kind}`]
    : apiVersion.startsWith('cert-manager.io/')
      ? [`@kubernetes-models/cert-manager/${apiVersion}/${kind}`]
      : [`kubernetes-models/${apiVersion}/${kind}`];
  for (const name of modules) {
    try {
      return require(name)[kind];
    } catch (error) {
      if (error.code !== 'MODULE_NOT_FOUND') throw error;
    }
  }
  return undefined;
}

/**
 * The problems of one object, each a line naming it; none when it is valid.
 * @param {unknown} value
 * @returns {string[]}
 */
function validate(value) {
  // Whatever YAML gave: its fields are looked at before they are trusted.
  const object = /** @type {{ apiVersion?: unknown, kind?: unknown, metadata?: { name?: unknown } } | null | undefined} */ (value);
  const name = `${object?.kind}/${object?.metadata?.name}`;
  if (typeof object?.apiVersion !== 'string' || typeof object.kind !== 'string') return [`${name}: no apiVersion or kind`];
  const cnpg = cnpgValidators[`${object.apiVersion}/${object.kind}`];
  if (cnpg) return cnpg(object) ? [] : (cnpg.errors ?? []).map((error) => `${name}: ${error.instancePath} ${error.message}`);
  const Model = modelClass(object.apiVersion, object.kind);
  if (!Model) return [`${name}: no schema for ${object.apiVersion} ${object.kind}`];
  try {
    new Model(object).validate();
    return [];
  } catch (error) {
    return [`${name}: ${error.message}`];
  }
}

module.exports = { validate };
