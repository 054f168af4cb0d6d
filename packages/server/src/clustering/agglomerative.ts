import { cosine, type SparseVector } from './tfidf.js';

/** A condensed square matrix of cosine distances (1 - similarity) between items. */
export type DistanceMatrix = { n: number; d: Float64Array };

/** One merge of the dendrogram: the clusters holding items `a` and `b` join at `distance`. */
export type Merge = { a: number; b: number; distance: number };

/** Pairwise cosine distances of normalised vectors. */
export const distanceMatrix = (vectors: readonly SparseVector[]): DistanceMatrix => {
  const n = vectors.length;
  const d = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const distance = Math.max(0, 1 - cosine(vectors[i]!, vectors[j]!));
      d[i * n + j] = distance;
      d[j * n + i] = distance;
    }
  }
  return { n, d };
};

/** The nearest active cluster to `a`; ties go to `prefer` (the chain's previous link), then the lowest index. */
const nearest = (work: Float64Array, n: number, active: Uint8Array, a: number, prefer: number): number => {
  let best = -1;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let k = 0; k < n; k++) {
    if (k === a || !active[k]) continue;
    const distance = work[a * n + k]!;
    if (distance < bestDistance || (distance === bestDistance && k === prefer)) {
      best = k;
      bestDistance = distance;
    }
  }
  return best;
};

/**
 * Average-linkage agglomerative clustering by the nearest-neighbour-chain algorithm (O(n^2) time
 * and memory). Returns the n - 1 merges sorted by distance; applying the first m of them gives
 * the partition into n - m clusters. Deterministic for a given matrix.
 */
export const averageLinkage = ({ n, d }: DistanceMatrix): Merge[] => {
  const work = Float64Array.from(d);
  const active = new Uint8Array(n).fill(1);
  const size = new Float64Array(n).fill(1);
  const merges: Merge[] = [];
  const chain: number[] = [];
  let remaining = n;
  while (remaining > 1) {
    if (chain.length === 0) chain.push(active.indexOf(1));
    const a = chain.at(-1)!;
    const previous = chain.length > 1 ? chain.at(-2)! : -1;
    const b = nearest(work, n, active, a, previous);
    if (b !== previous) {
      chain.push(b);
      continue;
    }
    chain.splice(-2, 2);
    merges.push({ a: Math.min(a, b), b: Math.max(a, b), distance: work[a * n + b]! });
    // Lance-Williams update for average linkage; the merged cluster lives on in slot `keep`
    const [keep, drop] = a < b ? [a, b] : [b, a];
    for (let k = 0; k < n; k++) {
      if (!active[k] || k === keep || k === drop) continue;
      const merged =
        (size[keep]! * work[keep * n + k]! + size[drop]! * work[drop * n + k]!) / (size[keep]! + size[drop]!);
      work[keep * n + k] = merged;
      work[k * n + keep] = merged;
    }
    size[keep]! += size[drop]!;
    active[drop] = 0;
    remaining--;
  }
  return merges.sort((x, y) => x.distance - y.distance || x.a - y.a || x.b - y.b);
};

const find = (parent: Int32Array, i: number): number => {
  let root = i;
  while (parent[root] !== root) root = parent[root]!;
  while (parent[i] !== root) {
    const next = parent[i]!;
    parent[i] = root;
    i = next;
  }
  return root;
};

/** The partition after the first `count` merges: a cluster number per item, numbered by first item. */
export const cutAfter = (n: number, merges: readonly Merge[], count: number): number[] => {
  const parent = Int32Array.from({ length: n }, (_, i) => i);
  for (const merge of merges.slice(0, count)) {
    const ra = find(parent, merge.a);
    const rb = find(parent, merge.b);
    if (ra !== rb) parent[Math.max(ra, rb)] = Math.min(ra, rb);
  }
  const numbers = new Map<number, number>();
  return Array.from({ length: n }, (_, i) => {
    const root = find(parent, i);
    if (!numbers.has(root)) numbers.set(root, numbers.size);
    return numbers.get(root)!;
  });
};

/**
 * Mean silhouette of a partition under the distances (singletons score 0). 1 means tight, well
 * separated clusters; around 0, no structure.
 */
export const silhouette = ({ n, d }: DistanceMatrix, labels: readonly number[]): number => {
  const k = Math.max(...labels) + 1;
  if (k < 2 || k >= n) return 0;
  const sizes = new Array<number>(k).fill(0);
  for (const label of labels) sizes[label]!++;
  let total = 0;
  const sums = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    sums.fill(0);
    for (let j = 0; j < n; j++) if (j !== i) sums[labels[j]!]! += d[i * n + j]!;
    const own = labels[i]!;
    if (sizes[own]! <= 1) continue;
    const a = sums[own]! / (sizes[own]! - 1);
    let b = Number.POSITIVE_INFINITY;
    for (let c = 0; c < k; c++) if (c !== own && sizes[c]! > 0) b = Math.min(b, sums[c]! / sizes[c]!);
    total += (b - a) / Math.max(a, b) || 0;
  }
  return total / n;
};
