import { symmetricEigen } from './eigen.js';

/** A seeded PRNG (mulberry32), so k-means starts are the same on every run. */
const prng = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** Similarities (row-major n x n, symmetric, 1 on the diagonal) of the items to cluster. */
export type Similarity = { n: number; s: Float64Array };

/**
 * The k-nearest-neighbour graph of the similarities, symmetrised (an edge when either end has the
 * other among its `k` most similar), weighted by the (non-negative) similarity.
 */
export const knnAffinity = ({ n, s }: Similarity, k: number): Float64Array => {
  const w = new Float64Array(n * n);
  const order = Array.from({ length: n }, (_, j) => j);
  for (let i = 0; i < n; i++) {
    const ranked = order
      .filter((j) => j !== i)
      .sort((a, b) => s[i * n + b]! - s[i * n + a]! || a - b)
      .slice(0, k);
    for (const j of ranked) {
      const v = Math.max(0, s[i * n + j]!);
      w[i * n + j] = v;
      w[j * n + i] = v;
    }
  }
  return w;
};

/** The leading eigenpairs of the normalised affinity D^-1/2 W D^-1/2: values descending, rows = items. */
export const spectralEmbedding = (w: Float64Array, n: number, dims: number) => {
  const degree = new Float64Array(n);
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) degree[i]! += w[i * n + j]!;
  const scale = degree.map((d) => (d > 0 ? 1 / Math.sqrt(d) : 0));
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) m[i * n + j] = scale[i]! * w[i * n + j]! * scale[j]!;
  const { values, vectors } = symmetricEigen(m, n);
  const count = Math.min(dims, n);
  const top = Array.from({ length: count }, (_, c) => values[n - 1 - c]!);
  const rows = Array.from({ length: n }, (_, i) =>
    Float64Array.from({ length: count }, (_, c) => vectors[i * n + (n - 1 - c)]!),
  );
  return { values: top, rows };
};

const squared = (a: Float64Array, b: Float64Array, dims: number) => {
  let sum = 0;
  for (let c = 0; c < dims; c++) sum += (a[c]! - b[c]!) ** 2;
  return sum;
};

/**
 * k-means (Lloyd) on the first `dims` coordinates of `points`, k-means++ starts from a seeded
 * PRNG, the best of `restarts` runs by inertia. Labels numbered by first member.
 */
export const kMeans = (points: readonly Float64Array[], k: number, dims: number, restarts = 8): number[] => {
  const n = points.length;
  const random = prng(0x5eed + k);
  let best: { inertia: number; labels: number[] } | null = null;
  for (let run = 0; run < restarts; run++) {
    const centres: Float64Array[] = [Float64Array.from(points[Math.floor(random() * n)]!)];
    const nearest = points.map((p) => squared(p, centres[0]!, dims));
    while (centres.length < k) {
      const total = nearest.reduce((a, b) => a + b, 0);
      let target = random() * total;
      let pick = 0;
      for (; pick < n - 1; pick++) {
        target -= nearest[pick]!;
        if (target <= 0) break;
      }
      centres.push(Float64Array.from(points[pick]!));
      points.forEach((p, i) => {
        nearest[i] = Math.min(nearest[i]!, squared(p, centres.at(-1)!, dims));
      });
    }
    const labels = new Array<number>(n).fill(-1);
    for (let iteration = 0; iteration < 100; iteration++) {
      let changed = false;
      points.forEach((p, i) => {
        let label = 0;
        let distance = Number.POSITIVE_INFINITY;
        centres.forEach((centre, c) => {
          const dd = squared(p, centre, dims);
          if (dd < distance) [label, distance] = [c, dd];
        });
        if (labels[i] !== label) [labels[i], changed] = [label, true];
      });
      if (!changed) break;
      centres.forEach((centre, c) => {
        const members = points.filter((_, i) => labels[i] === c);
        if (members.length === 0) return;
        centre.fill(0);
        for (const p of members) for (let d = 0; d < dims; d++) centre[d]! += p[d]! / members.length;
      });
    }
    const inertia = points.reduce((sum, p, i) => sum + squared(p, centres[labels[i] ?? 0]!, dims), 0);
    if (!best || inertia < best.inertia - 1e-12) best = { inertia, labels };
  }
  const numbers = new Map<number, number>();
  return best!.labels.map((label) => {
    if (!numbers.has(label)) numbers.set(label, numbers.size);
    return numbers.get(label)!;
  });
};

/** Rows scaled to unit length (Ng, Jordan and Weiss), on the first `dims` coordinates. */
export const normaliseRows = (rows: readonly Float64Array[], dims: number) =>
  rows.map((row) => {
    let norm = 0;
    for (let c = 0; c < dims; c++) norm += row[c]! ** 2;
    norm = Math.sqrt(norm) || 1;
    return Float64Array.from({ length: dims }, (_, c) => row[c]! / norm);
  });

/** How {@link spectralPartition} cuts. */
export type SpectralOptions = {
  /** Most clusters returned (items outside any cluster's reach aside). */
  maxClusters: number;
  /** Items clustered exactly (O(n^3)); the rest join the cluster they are most similar to. @default 600 */
  maxExact?: number;
};

/** Share of the items a connected part of the neighbour graph needs to be clustered (not noise). */
const MIN_COMPONENT_SHARE = 0.04;
/** Fewer items than this are grouped by any shared similarity, not by a graph. */
const MIN_GRAPH = 6;

/** Evenly spaced positions 0..n-1, `count` of them (the sample of a large set, deterministic). */
const evenSample = (n: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => Math.floor((i * n) / count));

/** Connected components of a weighted graph: a component number per node, and component sizes. */
const components = (w: Float64Array, n: number) => {
  const label = new Int32Array(n).fill(-1);
  const sizes: number[] = [];
  for (let start = 0; start < n; start++) {
    if (label[start]! >= 0) continue;
    const stack = [start];
    label[start] = sizes.length;
    let size = 0;
    while (stack.length > 0) {
      const a = stack.pop()!;
      size++;
      for (let b = 0; b < n; b++) {
        if (w[a * n + b]! > 0 && label[b]! < 0) {
          label[b] = sizes.length;
          stack.push(b);
        }
      }
    }
    sizes.push(size);
  }
  return { label, sizes };
};

/**
 * Joins each unlabelled item (-1) to the cluster its mean similarity is highest with; an item
 * similar to none gets the extra cluster `k` ("other").
 */
const attach = (labels: number[], k: number, similarity: (i: number, j: number) => number) => {
  const labelled = labels.flatMap((label, i) => (label >= 0 ? [i] : []));
  return labels.map((label, i) => {
    if (label >= 0) return label;
    const sum = new Float64Array(k);
    const count = new Float64Array(k);
    for (const j of labelled) {
      sum[labels[j]!]! += similarity(i, j);
      count[labels[j]!]! += 1;
    }
    let best = k;
    let bestMean = 0;
    for (let c = 0; c < k; c++) {
      const mean = count[c]! > 0 ? sum[c]! / count[c]! : 0;
      if (mean > bestMean) [best, bestMean] = [c, mean];
    }
    return best;
  });
};

const exact = (n: number, similarity: (i: number, j: number) => number, maxClusters: number): number[] => {
  const s = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    s[i * n + i] = 1;
    for (let j = i + 1; j < n; j++) {
      const v = similarity(i, j);
      s[i * n + j] = v;
      s[j * n + i] = v;
    }
  }
  // too few texts for a graph: texts sharing anything go together
  if (n < MIN_GRAPH)
    return Array.from(
      components(
        s.map((v) => (v > 0 ? v : 0)),
        n,
      ).label,
    );
  const w = knnAffinity({ n, s }, Math.max(2, Math.round(Math.sqrt(n))));
  const { label, sizes } = components(w, n);
  const minSize = Math.max(3, Math.round(MIN_COMPONENT_SHARE * n));
  const core = Array.from({ length: n }, (_, i) => i).filter((i) => sizes[label[i] ?? 0]! >= minSize);
  if (core.length < 4) return new Array<number>(n).fill(0);
  const m = core.length;
  const inner = new Float64Array(m * m);
  for (let a = 0; a < m; a++)
    for (let b = 0; b < m; b++) inner[a * m + b] = w[(core[a] ?? 0) * n + (core[b] ?? 0)]!;
  const { values, rows } = spectralEmbedding(inner, m, Math.min(maxClusters + 1, m));
  // the number of clusters: the largest gap between consecutive leading eigenvalues
  let k = 1;
  let widest = Number.NEGATIVE_INFINITY;
  for (let c = 2; c <= Math.min(maxClusters, values.length - 1); c++) {
    const gap = values[c - 1]! - values[c]!;
    if (gap > widest) [k, widest] = [c, gap];
  }
  const coreLabels = k === 1 ? new Array<number>(m).fill(0) : kMeans(normaliseRows(rows, k), k, k);
  const labels = new Array<number>(n).fill(-1);
  core.forEach((i, a) => {
    labels[i] = coreLabels[a]!;
  });
  return attach(labels, k, (i, j) => s[i * n + j]!);
};

/**
 * A cluster number per item (numbered by first member) by spectral clustering: the symmetrised
 * k-nearest-neighbour graph of the similarities (k = round(sqrt(n))), its parts smaller than 4% of
 * the items set aside as noise, the number of clusters by the widest eigengap of the normalised
 * affinity (2..maxClusters), k-means on the unit-length spectral rows (Ng, Jordan and Weiss); noise
 * then joins the cluster it is most similar to on average, or a cluster of its own when similar to
 * none. Above `maxExact` items an evenly spaced sample is clustered and the rest join likewise.
 */
export const spectralPartition = (
  n: number,
  similarity: (i: number, j: number) => number,
  options: SpectralOptions,
): number[] => {
  const maxExact = options.maxExact ?? 600;
  let labels: number[];
  if (n <= maxExact) labels = exact(n, similarity, options.maxClusters);
  else {
    const sample = evenSample(n, maxExact);
    const sampleLabels = exact(maxExact, (a, b) => similarity(sample[a]!, sample[b]!), options.maxClusters);
    const k = Math.max(...sampleLabels) + 1;
    const all = new Array<number>(n).fill(-1);
    sample.forEach((i, a) => {
      all[i] = sampleLabels[a]!;
    });
    labels = attach(all, k, similarity);
  }
  const numbers = new Map<number, number>();
  return labels.map((label) => {
    if (!numbers.has(label)) numbers.set(label, numbers.size);
    return numbers.get(label)!;
  });
};
