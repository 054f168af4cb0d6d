import type { ZodTypeAny } from 'zod';

/** Deterministic ids and timestamps: the same sequence of calls yields the same values. */
export class Sequence {
  #n = 0;

  /** The next number, from 1. */
  next(): number {
    this.#n += 1;
    return this.#n;
  }

  /** A UUID-shaped id made from the next number. */
  uuid(): string {
    return uuidOf(this.next());
  }

  /** An ISO timestamp one second after the previous one (from 2025-01-01T00:00:00Z). */
  timestamp(): string {
    return new Date(Date.UTC(2025, 0, 1) + this.next() * 1000).toISOString();
  }

  reset(): void {
    this.#n = 0;
  }
}

/** The UUID (v4 layout) for number `n` under `prefix` (one hex digit per kind of id). */
export const uuidOf = (n: number, prefix = '0'): string =>
  `${prefix}0000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

type Check = { kind: string; value?: unknown };
type Def = {
  typeName: string;
  checks?: Check[];
  values?: readonly string[] | Record<string, string | number>;
  value?: unknown;
  type?: ZodTypeAny;
  innerType?: ZodTypeAny;
  schema?: ZodTypeAny;
  out?: ZodTypeAny;
  options?: ZodTypeAny[];
  left?: ZodTypeAny;
  right?: ZodTypeAny;
  minLength?: { value: number } | null;
  exactLength?: { value: number } | null;
  defaultValue?: () => unknown;
  getter?: () => ZodTypeAny;
  shape?: () => Record<string, ZodTypeAny>;
};

const defOf = (schema: ZodTypeAny): Def => schema._def as Def;

const sampleString = (def: Def, seq: Sequence): string => {
  const kinds = new Set((def.checks ?? []).map((c) => c.kind));
  if (kinds.has('uuid')) return seq.uuid();
  if (kinds.has('datetime')) return seq.timestamp();
  if (kinds.has('email')) return `user${seq.next()}@example.test`;
  if (kinds.has('url')) return 'https://example.test';
  const min = (def.checks ?? []).find((c) => c.kind === 'min')?.value;
  return typeof min === 'number' && min > 6 ? 'x'.repeat(min) : 'string';
};

const sampleNumber = (def: Def): number => {
  const min = (def.checks ?? []).find((c) => c.kind === 'min')?.value;
  return typeof min === 'number' ? min : 0;
};

/**
 * The plainest value `schema` accepts: ids and timestamps from `seq`, numbers at their minimum,
 * the first enum member, empty arrays and records, null for nullables, optional keys left out.
 */
export const sample = (schema: ZodTypeAny, seq: Sequence): unknown => {
  const def = defOf(schema);
  switch (def.typeName) {
    case 'ZodObject': {
      const entries = Object.entries(def.shape?.() ?? {}).map(
        ([key, value]) => [key, sample(value, seq)] as const,
      );
      return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
    }
    case 'ZodString':
      return sampleString(def, seq);
    case 'ZodNumber':
      return sampleNumber(def);
    case 'ZodBoolean':
      return false;
    case 'ZodEnum':
      return (def.values as readonly string[])[0];
    case 'ZodNativeEnum':
      return Object.values(def.values ?? {})[0];
    case 'ZodLiteral':
      return def.value;
    case 'ZodArray': {
      const length = def.exactLength?.value ?? def.minLength?.value ?? 0;
      return Array.from({ length }, () => sample(def.type as ZodTypeAny, seq));
    }
    case 'ZodNullable':
    case 'ZodNull':
    case 'ZodUnknown':
    case 'ZodAny':
      return null;
    case 'ZodDefault':
      return def.defaultValue?.();
    case 'ZodEffects':
      return sample(def.schema as ZodTypeAny, seq);
    case 'ZodPipeline':
      return sample(def.out as ZodTypeAny, seq);
    case 'ZodLazy':
      return sample(def.getter?.() as ZodTypeAny, seq);
    case 'ZodUnion':
    case 'ZodDiscriminatedUnion':
      return sample((def.options as ZodTypeAny[])[0] as ZodTypeAny, seq);
    case 'ZodIntersection':
      return {
        ...(sample(def.left as ZodTypeAny, seq) as object),
        ...(sample(def.right as ZodTypeAny, seq) as object),
      };
    case 'ZodRecord':
    case 'ZodMap':
      return {};
    case 'ZodReadonly':
    case 'ZodBranded':
    case 'ZodCatch':
      return sample((def.innerType ?? def.type) as ZodTypeAny, seq);
    default:
      // ZodOptional, ZodNever, ZodUndefined, ZodVoid: nothing to put there.
      return undefined;
  }
};
