/**
 * Inputs for the contract-driven fuzz test, generated from `contract/openapi.json` alone: valid
 * values for any schema the document uses, and hostile ones (wrong types, sizes, NUL, lone
 * surrogates, deep nesting, extra fields, bad percent-encoding, malformed JSON and multipart).
 * Everything is drawn from one seeded generator, so a seed replays the same requests.
 */

export type Schema = Record<string, any>;
export type Doc = { paths: Record<string, Record<string, any>>; components: Record<string, any> };

/** mulberry32: small, fast, seeded. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  uuid(): string {
    const hex = Array.from({ length: 32 }, () => this.int(0, 15).toString(16)).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20)}`;
  }
}

/** Ids the server handed out, by the collection path they belong to (`/api/v1/agents`). */
export class IdPool {
  private readonly byCollection = new Map<string, string[]>();
  /** Path parameter name -> its collection (`agent_id` -> `/api/v1/agents`), from the document. */
  readonly collectionOf = new Map<string, string>();

  constructor(doc: Doc) {
    for (const path of Object.keys(doc.paths)) {
      const match = /^(.*?)\/\{([^}]+)\}/.exec(path);
      if (match && !this.collectionOf.has(match[2]!)) this.collectionOf.set(match[2]!, match[1]!);
    }
  }

  add(collection: string, id: unknown) {
    if (typeof id !== 'string') return;
    const ids = this.byCollection.get(collection) ?? [];
    if (!ids.includes(id)) ids.push(id);
    this.byCollection.set(collection, ids);
  }

  /** Ids usable for a field or parameter name (`agent_id`, `metric_ids`), if any were seen. */
  idsFor(name: string | undefined): string[] {
    if (!name) return [];
    const singular = name.endsWith('_ids') ? name.slice(0, -1) : name;
    const collection = this.collectionOf.get(singular);
    return (collection && this.byCollection.get(collection)) || [];
  }

  get size() {
    return [...this.byCollection.values()].reduce((n, ids) => n + ids.length, 0);
  }
}

const WORDS = ['alpha', 'Beta', 'gamma', 'delta-1', 'épsilon', 'zeta_2', '日本', 'name', 'x'];
const PATTERN_CANDIDATES = ['abc', 'a-b', 'abc-123', 'ABC', 'a_b', '1', 'en-US', '#aabbcc', 'a.b', 'A1'];

/** Strings a careless server mishandles. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  'a\u0000b',
  '\u0000',
  '\ud800x',
  'x\udc00',
  '\ud83d',
  '💥🎙️👩🏽‍💻'.repeat(20),
  '\u202e\u0301\ufeff\u200b',
  '\uffff\ufffe',
  '\n\r\t\u0007',
  'x'.repeat(70_000),
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  "' or 1=1 --",
  '\\',
  '{"a":1}',
  'null',
  '-1',
  '1e309',
  '9'.repeat(400),
  '2024-02-30T25:61:00Z',
  'javascript:alert(1)',
  'http://[::1]:0/',
];

const deepArray = (depth: number): unknown => {
  let value: unknown = [];
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

/** `text` with its last character (or a first one) replaced by U+0000 or a lone surrogate. */
export const badText = (rng: Rng, text: string): string =>
  `${text.slice(0, Math.max(0, text.length - 1))}${rng.pick(['\u0000', '\ud800', '\udfff'])}`;

/** Any JSON value a careless server mishandles. */
export const hostileValue = (rng: Rng): unknown => {
  if (rng.chance(0.5)) return rng.pick(HOSTILE_STRINGS);
  return rng.pick<() => unknown>([
    () => null,
    () => true,
    () => 0,
    () => -1,
    () => 1.5,
    () => 2 ** 53 + 1,
    () => -(2 ** 63),
    () => 1e308,
    () => [],
    () => ({}),
    () => deepArray(rng.pick([5, 70, 2000])),
    () => JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"x":1}}}'),
    () => Array.from({ length: 3000 }, (_, i) => `item-${i}`),
    () => ({ [rng.pick(HOSTILE_STRINGS).slice(0, 20) || 'k']: rng.pick(HOSTILE_STRINGS).slice(0, 50) }),
    () => [rng.pick(HOSTILE_STRINGS), rng.pick(HOSTILE_STRINGS)],
  ])();
};

/** Raw query values or path segments, sent as they are (not encoded again). */
export const HOSTILE_RAW = [
  '%00',
  '%',
  '%E0%A4%A',
  '%ED%A0%80',
  '%FF',
  '%C0%AF',
  '%2F',
  '%F0%9F%92%A5',
  'a%00b',
  '..',
  'x'.repeat(5000),
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  '-1',
  '0',
  '1e999',
  'NaN',
  'true',
  '',
  '%20',
  '%27%20or%201%3D1',
];

/** Raw JSON-ish bodies, with the content type to send them as. */
export const hostileRawBody = (rng: Rng, validJson: string): { contentType: string; body: string } =>
  rng.pick<() => { contentType: string; body: string }>([
    () => ({ contentType: 'application/json', body: '' }),
    () => ({ contentType: 'application/json', body: '{' }),
    () => ({ contentType: 'application/json', body: '{"a":' }),
    () => ({ contentType: 'application/json', body: 'null' }),
    () => ({ contentType: 'application/json', body: '[]' }),
    () => ({ contentType: 'application/json', body: '"text"' }),
    () => ({ contentType: 'application/json', body: '123' }),
    () => ({ contentType: 'application/json', body: '{"__proto__":{"polluted":true}}' }),
    () => ({ contentType: 'application/json', body: `${validJson.slice(0, -1)},"x":1,"x":2}` }),
    () => ({ contentType: 'application/json', body: `${'['.repeat(50_000)}${']'.repeat(50_000)}` }),
    () => ({ contentType: 'application/json', body: `\ufeff${validJson}` }),
    () => ({ contentType: 'application/json', body: `${validJson.slice(0, validJson.length >> 1)}` }),
    () => ({ contentType: 'application/json', body: '{"a":1e999999}' }),
    () => ({ contentType: 'application/json; charset=latin1', body: validJson }),
    () => ({ contentType: 'application/json; charset=utf-7', body: validJson }),
    () => ({ contentType: 'text/plain', body: validJson }),
    () => ({ contentType: 'application/x-www-form-urlencoded', body: 'a=b&name=%00' }),
    () => ({ contentType: 'multipart/form-data', body: validJson }),
    () => ({ contentType: 'application/xml', body: '<a/>' }),
    () => ({ contentType: 'application/merge-patch+json', body: validJson }),
  ])();

/** Malformed multipart bodies (boundary `XyZ` unless the content type says otherwise). */
export const hostileMultipart = (rng: Rng): { contentType: string; body: string } => {
  const part = (name: string, filename: string, content: string) =>
    `--XyZ\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\n` +
    `Content-Type: application/octet-stream\r\n\r\n${content}\r\n`;
  const whole = `${part('file', 'a.csv', 'conversation_id\nc1\n')}--XyZ--\r\n`;
  return rng.pick<() => { contentType: string; body: string }>([
    () => ({ contentType: 'multipart/form-data', body: whole }),
    () => ({ contentType: 'multipart/form-data; boundary=Other', body: whole }),
    () => ({ contentType: 'multipart/form-data; boundary=XyZ', body: whole.slice(0, 90) }),
    () => ({ contentType: 'multipart/form-data; boundary=XyZ', body: '' }),
    () => ({ contentType: 'multipart/form-data; boundary=XyZ', body: whole.replace('a.csv', 'a\u0000.csv') }),
    () => ({ contentType: 'multipart/form-data; boundary="', body: whole }),
    () => ({ contentType: 'application/json', body: '{}' }),
    () => ({ contentType: 'text/plain', body: 'hello' }),
    () => ({
      contentType: 'multipart/form-data; boundary=XyZ',
      body: `--XyZ\r\nContent-Disposition: form-data; name="dataset"\r\n\r\nd\u0000x\r\n${whole}`,
    }),
  ])();
};

/** Valid values for the schemas of one document. */
export class Generator {
  constructor(
    private readonly doc: Doc,
    private readonly rng: Rng,
    private readonly ids: IdPool,
  ) {}

  resolve(schema: Schema | undefined): Schema {
    let s = schema ?? {};
    while (s.$ref) {
      const path = (s.$ref as string).replace(/^#\//, '').split('/');
      s = path.reduce<any>((node, key) => node?.[key], this.doc) ?? {};
    }
    return s;
  }

  /** A value the schema accepts (as far as a schema says: business rules may still refuse it). */
  valid(schema: Schema | undefined, name?: string, depth = 0): unknown {
    const rng = this.rng;
    const s = this.resolve(schema);
    if (s.const !== undefined) return s.const;
    if (Array.isArray(s.enum)) return rng.pick(s.enum);
    const variants = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (variants) {
      const nonNull = variants.filter((v) => this.resolve(v).type !== 'null');
      return this.valid(rng.pick(nonNull.length > 0 && rng.chance(0.9) ? nonNull : variants), name, depth);
    }
    if (Array.isArray(s.allOf)) {
      return Object.assign({}, ...s.allOf.map((part: Schema) => this.valid(part, name, depth)));
    }
    const types = Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : [];
    const type = types.length > 1 ? rng.pick(types.filter((t) => t !== 'null')) : types[0];
    switch (type ?? (s.properties ? 'object' : undefined)) {
      case 'string':
        return this.string(s, name);
      case 'integer':
      case 'number': {
        const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 0);
        const max = s.maximum ?? Math.max(min, 0) + 50;
        const value = rng.int(Math.ceil(min), Math.floor(max));
        return type === 'number' && rng.chance(0.3) ? Math.min(max, value + 0.5) : value;
      }
      case 'boolean':
        return rng.chance(0.5);
      case 'null':
        return null;
      case 'array': {
        const min = s.minItems ?? 0;
        const n = rng.int(min, Math.min(s.maxItems ?? min + 2, min + 2));
        const items = Array.from({ length: n }, () => this.valid(s.items, name, depth + 1));
        return s.uniqueItems
          ? [...new Set(items.map((i) => JSON.stringify(i)))].map((i) => JSON.parse(i))
          : items;
      }
      case 'object': {
        if (depth > 6) return {};
        const out: Record<string, unknown> = {};
        const required = new Set<string>(s.required ?? []);
        for (const [key, prop] of Object.entries<Schema>(s.properties ?? {})) {
          if (required.has(key) || rng.chance(0.5)) out[key] = this.valid(prop, key, depth + 1);
        }
        if (s.additionalProperties && typeof s.additionalProperties === 'object' && rng.chance(0.5)) {
          out[`key_${rng.int(1, 9)}`] = this.valid(s.additionalProperties, undefined, depth + 1);
        }
        return out;
      }
      default:
        return rng.pick(['x', 1, true, null, { a: 1 }]);
    }
  }

  private string(s: Schema, name?: string): string {
    const rng = this.rng;
    switch (s.format) {
      case 'uuid': {
        const known = this.ids.idsFor(name);
        return known.length > 0 && rng.chance(0.85) ? rng.pick(known) : rng.uuid();
      }
      case 'date-time':
        return new Date(Date.UTC(2026, rng.int(0, 11), rng.int(1, 28), rng.int(0, 23))).toISOString();
      case 'email':
        return `fuzz-${rng.int(1, 1e9)}@example.test`;
      case 'uri':
        // loopback discard port: refused by the address policy or by the port, never the network
        return `http://127.0.0.1:9/fuzz/${rng.int(1, 99)}`;
    }
    const min = s.minLength ?? 0;
    const max = s.maxLength ?? min + 24;
    if (s.pattern) {
      const pattern = new RegExp(s.pattern);
      const fit = PATTERN_CANDIDATES.filter((c) => pattern.test(c) && c.length >= min && c.length <= max);
      if (fit.length > 0) return rng.pick(fit);
    }
    let text = `${rng.pick(WORDS)} ${rng.int(1, 1e6)}`;
    while (text.length < min) text += rng.pick(WORDS);
    return text.slice(0, Math.max(min, Math.min(max, text.length)));
  }

  /** Every path to a value inside `root` (objects and arrays), `[]` being the root itself. */
  paths(root: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
    const out = [prefix];
    if (Array.isArray(root)) {
      for (const [i, v] of root.entries()) out.push(...this.paths(v, [...prefix, i]));
    } else if (root && typeof root === 'object') {
      for (const [k, v] of Object.entries(root)) out.push(...this.paths(v, [...prefix, k]));
    }
    return out;
  }

  /**
   * `value` with one hostile change: a string keeping its length but holding U+0000 or a lone
   * surrogate (so it passes the schema and reaches the database), a value replaced, a field
   * added, or a required field removed.
   */
  mutate(value: unknown, text = this.rng.chance(0.5)): unknown {
    const rng = this.rng;
    const copy = structuredClone(value);
    const strings = this.paths(copy).filter(
      (p) => p.length > 0 && typeof p.reduce<any>((node, key) => node[key], copy) === 'string',
    );
    if (strings.length > 0 && text) {
      const path = rng.pick(strings);
      const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
      parent[path[path.length - 1]!] = badText(rng, parent[path[path.length - 1]!]);
      return copy;
    }
    const path = rng.pick(this.paths(copy));
    if (path.length === 0)
      return rng.chance(0.7) && copy && typeof copy === 'object'
        ? { ...copy, extra: hostileValue(rng) }
        : hostileValue(rng);
    const parent = path.slice(0, -1).reduce<any>((node, key) => node[key], copy);
    const key = path[path.length - 1]!;
    const action = rng.int(0, 9);
    if (action === 0 && !Array.isArray(parent)) delete parent[key];
    else if (action === 1 && !Array.isArray(parent)) parent[`extra_${rng.int(1, 9)}`] = hostileValue(rng);
    else parent[key] = hostileValue(rng);
    return copy;
  }
}
