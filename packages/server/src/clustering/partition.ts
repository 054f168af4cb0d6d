import {
  averageLinkage,
  cutAfter,
  type DistanceMatrix,
  distanceMatrix,
  type Merge,
  silhouette,
} from './agglomerative.js';
import { centroid, dotDense, type SparseVector } from './tfidf.js';

/**
 * Average-linkage cosine distances that bound the number of clusters: groups closer than `merge`
 * are always one cluster, groups at least `split` apart are never merged (up to `maxClusters`).
 */
export type DistanceBand = { merge: number; split: number };

/** How a set of vectors is cut into clusters. */
export type PartitionOptions = {
  /** Most clusters returned. */
  maxClusters: number;
  /** A cut whose mean silhouette is below this is not trusted. */
  minSilhouette: number;
  /** Bounds on the cut; with null an untrusted cut makes `partition` return null (no structure). */
  band: DistanceBand | null;
  /** Items clustered exactly; the rest join the nearest cluster centroid. @default 1500 */
  maxExact?: number;
};

/** Evenly spaced positions 0..n-1, `count` of them (the sample of a large set, deterministic). */
const evenSample = (n: number, count: number): number[] =>
  Array.from({ length: count }, (_, i) => Math.floor((i * n) / count));

/** Clusters left after every merge closer than `distance`. */
const clustersAt = (n: number, merges: readonly Merge[], distance: number) =>
  n - merges.filter((merge) => merge.distance < distance).length;

/**
 * The number of clusters: among 2..maxClusters, the cut maximising mean silhouette times the
 * distance gap to the next merge (clusters well separated AND before a large jump of the
 * dendrogram), trusted from `minSilhouette` on; then held inside the distance band.
 */
const chooseK = (
  matrix: DistanceMatrix,
  merges: readonly Merge[],
  options: PartitionOptions,
): number | null => {
  const n = matrix.n;
  let best: { k: number; silhouette: number; score: number } | null = null;
  for (let k = 2; k <= Math.min(options.maxClusters, n - 1); k++) {
    const score = silhouette(matrix, cutAfter(n, merges, n - k));
    const gap = merges[n - k]!.distance - merges[n - k - 1]!.distance;
    if (!best || score * gap > best.score) best = { k, silhouette: score, score: score * gap };
  }
  const trusted = best && best.silhouette >= options.minSilhouette ? best.k : null;
  if (!options.band) return trusted;
  const lowest = Math.min(clustersAt(n, merges, options.band.split), options.maxClusters);
  const highest = clustersAt(n, merges, options.band.merge);
  return Math.max(lowest, Math.min(trusted ?? lowest, highest));
};

/** Labels of the exactly clustered items, or null when no structure was found (band null). */
const partitionExact = (vectors: readonly SparseVector[], options: PartitionOptions): number[] | null => {
  const n = vectors.length;
  if (n <= 1) return n === 1 ? [0] : [];
  const matrix = distanceMatrix(vectors);
  const merges = averageLinkage(matrix);
  const k = chooseK(matrix, merges, options);
  return k === null ? null : cutAfter(n, merges, n - k);
};

/**
 * A cluster number per vector (numbered by first member), by average-linkage agglomerative
 * clustering cut where {@link chooseK} says. Above `maxExact` items, an evenly spaced sample is
 * clustered and every other item joins the most similar cluster centroid.
 */
export const partition = (
  vectors: readonly SparseVector[],
  dimensions: number,
  options: PartitionOptions,
): number[] | null => {
  const maxExact = options.maxExact ?? 1500;
  if (vectors.length <= maxExact) return partitionExact(vectors, options);
  const sample = evenSample(vectors.length, maxExact);
  const sampleLabels = partitionExact(
    sample.map((i) => vectors[i]!),
    options,
  );
  if (!sampleLabels) return null;
  const k = Math.max(...sampleLabels) + 1;
  const centroids = Array.from({ length: k }, (_, c) =>
    centroid(
      sample.filter((_, s) => sampleLabels[s] === c).map((i) => vectors[i]!),
      dimensions,
    ),
  );
  return vectors.map((vector) => {
    let best = 0;
    let bestScore = Number.NEGATIVE_INFINITY;
    centroids.forEach((center, c) => {
      const score = dotDense(vector, center);
      if (score > bestScore) [best, bestScore] = [c, score];
    });
    return best;
  });
};
