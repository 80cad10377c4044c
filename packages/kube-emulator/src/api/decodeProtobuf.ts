import { errors } from './status';

/** Content type of Kubernetes protobuf bodies (what typed client-go clients, e.g. `kubectl create ns`, send). */
export const PROTOBUF = 'application/vnd.kubernetes.protobuf';

const MAGIC = Buffer.from([0x6b, 0x38, 0x73, 0x00]); // "k8s\0"

type Fields = Map<number, Array<Buffer | number>>;

function readVarint(buf: Buffer, start: number): [number, number] {
  let result = 0;
  let shift = 0;
  let pos = start;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated varint');
    const b = buf[pos++];
    result += (b & 0x7f) * 2 ** shift;
    if ((b & 0x80) === 0) return [result, pos];
    shift += 7;
  }
}

function parseMessage(buf: Buffer): Fields {
  const fields: Fields = new Map();
  let pos = 0;
  while (pos < buf.length) {
    const [key, p1] = readVarint(buf, pos);
    pos = p1;
    const field = Math.floor(key / 8);
    const wire = key & 7;
    let value: Buffer | number;
    if (wire === 0) [value, pos] = readVarint(buf, pos);
    else if (wire === 2) {
      const [len, p2] = readVarint(buf, pos);
      value = buf.subarray(p2, p2 + len);
      pos = p2 + len;
    } else if (wire === 1) {
      value = buf.subarray(pos, pos + 8);
      pos += 8;
    } else if (wire === 5) {
      value = buf.subarray(pos, pos + 4);
      pos += 4;
    } else throw new Error(`unsupported wire type ${wire}`);
    if (!fields.has(field)) fields.set(field, []);
    fields.get(field)!.push(value);
  }
  return fields;
}

const str = (f: Fields, n: number) => {
  const v = f.get(n)?.[0];
  return Buffer.isBuffer(v) ? v.toString('utf8') : undefined;
};
const bytesList = (f: Fields, n: number) =>
  (f.get(n) ?? []).filter(Buffer.isBuffer) as Buffer[];

function map(
  f: Fields,
  n: number,
  value: (b: Buffer) => string,
): Record<string, string> | undefined {
  const entries = bytesList(f, n);
  if (entries.length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const e of entries) {
    const kv = parseMessage(e);
    const v = kv.get(2)?.[0];
    out[str(kv, 1) ?? ''] = Buffer.isBuffer(v) ? value(v) : '';
  }
  return out;
}

function objectMeta(buf: Buffer): Record<string, unknown> {
  const f = parseMessage(buf);
  const meta: Record<string, unknown> = {};
  const set = (k: string, v: unknown) =>
    v !== undefined && v !== '' && (meta[k] = v);
  set('name', str(f, 1));
  set('generateName', str(f, 2));
  set('namespace', str(f, 3));
  set(
    'labels',
    map(f, 11, b => b.toString('utf8')),
  );
  set(
    'annotations',
    map(f, 12, b => b.toString('utf8')),
  );
  const finalizers = bytesList(f, 14).map(b => b.toString('utf8'));
  if (finalizers.length) meta.finalizers = finalizers;
  return meta;
}

const strings = (f: Fields, n: number) =>
  bytesList(f, n).map(b => b.toString('utf8'));

/** Sets only the strings the client filled: proto2 writes empty optional strings too. */
function presentStrings(
  f: Fields,
  names: Record<number, string>,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [n, name] of Object.entries(names)) {
    const v = str(f, Number(n));
    if (v) out[name] = v;
  }
  return out;
}

// k8s.io/api/rbac/v1 generated.proto: PolicyRule, Subject, RoleRef; meta/v1 LabelSelector.
function policyRules(f: Fields): Array<Record<string, unknown>> {
  return bytesList(f, 2).map(b => {
    const r = parseMessage(b);
    const rule: Record<string, unknown> = { verbs: strings(r, 1) };
    const lists = {
      2: 'apiGroups',
      3: 'resources',
      4: 'resourceNames',
      5: 'nonResourceURLs',
    };
    for (const [n, name] of Object.entries(lists)) {
      // apiGroups keeps "" (the core group): present entries are kept as sent
      if (r.has(Number(n))) rule[name] = strings(r, Number(n));
    }
    return rule;
  });
}

function labelSelector(b: Buffer): Record<string, unknown> {
  const f = parseMessage(b);
  const out: Record<string, unknown> = {};
  const labels = map(f, 1, v => v.toString('utf8'));
  if (labels) out.matchLabels = labels;
  const expressions = bytesList(f, 2).map(e => {
    const x = parseMessage(e);
    return {
      key: str(x, 1) ?? '',
      operator: str(x, 2) ?? '',
      values: strings(x, 3),
    };
  });
  if (expressions.length) out.matchExpressions = expressions;
  return out;
}

function binding(f: Fields, obj: Record<string, unknown>): void {
  obj.subjects = bytesList(f, 2).map(b =>
    presentStrings(parseMessage(b), {
      1: 'kind',
      2: 'apiGroup',
      3: 'name',
      4: 'namespace',
    }),
  );
  const ref = f.get(3)?.[0];
  if (Buffer.isBuffer(ref))
    obj.roleRef = presentStrings(parseMessage(ref), {
      1: 'apiGroup',
      2: 'kind',
      3: 'name',
    });
}

/** Kind-specific top-level fields (generated.proto field numbers) for the kinds typed kubectl commands create. */
const KIND_FIELDS: Record<
  string,
  (f: Fields, obj: Record<string, unknown>) => void
> = {
  Namespace: () => {},
  ServiceAccount: () => {},
  ConfigMap: (f, obj) => {
    const data = map(f, 2, b => b.toString('utf8'));
    if (data) obj.data = data;
    const binary = map(f, 3, b => b.toString('base64'));
    if (binary) obj.binaryData = binary;
  },
  Secret: (f, obj) => {
    const data = map(f, 2, b => b.toString('base64'));
    if (data) obj.data = data;
    const type = str(f, 3);
    if (type) obj.type = type;
    const stringData = map(f, 4, b => b.toString('utf8'));
    if (stringData) obj.stringData = stringData;
  },
  // kubectl create role/clusterrole/rolebinding/clusterrolebinding
  Role: (f, obj) => {
    obj.rules = policyRules(f);
  },
  ClusterRole: (f, obj) => {
    obj.rules = policyRules(f);
    const aggregation = f.get(3)?.[0];
    if (Buffer.isBuffer(aggregation))
      obj.aggregationRule = {
        clusterRoleSelectors: bytesList(parseMessage(aggregation), 1).map(
          labelSelector,
        ),
      };
  },
  RoleBinding: binding,
  ClusterRoleBinding: binding,
};

/**
 * Decodes the protobuf envelope (`k8s\0` + runtime.Unknown) for the few kinds kubectl's typed
 * commands send as protobuf (namespaces, configmaps, secrets, serviceaccounts: metadata and data
 * only; roles and role bindings: their rules, subjects and roleRef). Anything else is a 415,
 * as for any unsupported body.
 */
export function decodeProtobufObject(
  body: Buffer,
  expectedKind: string,
): Record<string, unknown> {
  const handler = KIND_FIELDS[expectedKind];
  if (!handler || body.length < 4 || !body.subarray(0, 4).equals(MAGIC)) {
    throw errors.unsupportedMediaType(['application/json', 'application/yaml']);
  }
  try {
    const unknown = parseMessage(body.subarray(4));
    const typeMeta = parseMessage(
      (unknown.get(1)?.[0] as Buffer) ?? Buffer.alloc(0),
    );
    const raw = parseMessage(
      (unknown.get(2)?.[0] as Buffer) ?? Buffer.alloc(0),
    );
    const obj: Record<string, unknown> = {
      apiVersion: str(typeMeta, 1) ?? 'v1',
      kind: str(typeMeta, 2) ?? expectedKind,
      metadata: objectMeta((raw.get(1)?.[0] as Buffer) ?? Buffer.alloc(0)),
    };
    handler(raw, obj);
    return obj;
  } catch (e) {
    throw errors.badRequest(
      `the object provided is unrecognized (must be of type ${expectedKind}): ${(e as Error).message}`,
    );
  }
}
