import { createHash } from 'node:crypto';
import { labelOf, topTerms } from './labels.js';
import { partition } from './partition.js';
import { spectralPartition } from './spectral.js';
import { surfaceForms, type Token, tokenize } from './text.js';
import { centroid, cosine, dotDense, featuresOf, tfidf } from './tfidf.js';

/** One text to cluster: a flagged result's rationale and failure reason, say. */
export type TextItem = { id: string; text: string };

/** A group found inside a cluster. */
export type SubCluster = { id: string; label: string; terms: string[]; memberIds: string[] };

/** Items sharing vocabulary; `memberIds` are ordered most typical (closest to the centroid) first. */
export type Cluster = {
  id: string;
  label: string;
  terms: string[];
  memberIds: string[];
  subClusters: SubCluster[];
};

/** Tuning of {@link clusterItems}; the defaults are what reports use. */
export type ClusterOptions = {
  /** Seeds cluster ids, so equal terms under different metrics give different ids. @default '' */
  namespace?: string;
  /** @default 8 */
  maxClusters?: number;
  /** @default 4 */
  maxSubClusters?: number;
  /** Smallest cluster searched for sub-clusters. @default 6 */
  minSubClusterParent?: number;
  /**
   * Embedding vectors by item id (from an embeddings model): when every item has one, top-level
   * clusters are found on their cosine similarities instead of TF-IDF; terms and labels still
   * come from the words.
   */
  embeddings?: ReadonlyMap<string, readonly number[]>;
};

/**
 * Fewer texts than this make too thin a neighbour graph for spectral clustering: they are cut by
 * average linkage, silhouette and dendrogram gap inside a distance band (texts closer than 0.93
 * share a root cause, groups 0.97 apart stay apart), as before spectral clustering.
 */
const MIN_SPECTRAL = 40;
const SMALL_TOP = { minSilhouette: 0.05, band: { merge: 0.93, split: 0.97 } };
/** Sub-clusters are only reported for clearly separated structure. */
const MIN_SUB_SILHOUETTE = 0.2;

const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** Top terms an id is made of: few enough that a changed third term keeps the id. */
const ID_TERMS = 2;

/**
 * Stable ids: a hash of the namespace and the two top terms (sorted, so a swap keeps the id); a
 * clash (two groups with the same top terms) hashes the later group's member ids instead.
 */
const assignIds = <T extends { terms: string[]; memberIds: string[] }>(
  prefix: string,
  namespace: string,
  groups: T[],
) => {
  const seen = new Set<string>();
  return groups.map((group) => {
    const key = group.terms.slice(0, ID_TERMS).sort().join('\u0000');
    let id = `${prefix}_${hash(`${namespace}\u0000${key}`)}`;
    if (seen.has(id))
      id = `${prefix}_${hash(`${namespace}\u0000${[...group.memberIds].sort().join('\u0000')}`)}`;
    seen.add(id);
    return { ...group, id };
  });
};

type Grouped = { terms: string[]; label: string; members: number[] };

/** Cosine similarity of two dense vectors. */
const denseCosine = (a: readonly number[], b: readonly number[]): number => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i]! * (b[i] ?? 0);
    na += a[i]! * a[i]!;
    nb += (b[i] ?? 0) * (b[i] ?? 0);
  }
  return na > 0 && nb > 0 ? dot / Math.sqrt(na * nb) : 0;
};

/**
 * How texts are grouped: `spectral` (top level) on the embeddings when given, else on TF-IDF
 * cosine; `agglomerative` (sub-clusters) returns null when no cut is well separated.
 */
type Method =
  | { kind: 'spectral'; maxClusters: number; embeddings: ReadonlyArray<readonly number[]> | null }
  | { kind: 'agglomerative'; maxClusters: number; minSilhouette: number };

/** Vectorises the texts and groups them; members of each group most typical first. */
const group = (tokens: readonly Token[][], method: Method) => {
  const model = tfidf(tokens.map(featuresOf));
  const size = model.vocabulary.length;
  let labels: number[] | null;
  if (method.kind === 'spectral' && (method.embeddings || tokens.length >= MIN_SPECTRAL)) {
    const embeddings = method.embeddings;
    labels = spectralPartition(
      tokens.length,
      embeddings
        ? (i, j) => denseCosine(embeddings[i]!, embeddings[j]!)
        : (i, j) => cosine(model.vectors[i]!, model.vectors[j]!),
      { maxClusters: method.maxClusters },
    );
  } else if (method.kind === 'spectral') {
    labels = partition(model.vectors, size, { maxClusters: method.maxClusters, ...SMALL_TOP });
  } else {
    labels = partition(model.vectors, size, {
      maxClusters: method.maxClusters,
      minSilhouette: method.minSilhouette,
      band: null,
    });
  }
  if (!labels) return null;
  const forms = surfaceForms(tokens);
  const groups: Grouped[] = [];
  for (let c = 0; c <= Math.max(-1, ...labels); c++) {
    const members = labels.flatMap((label, i) => (label === c ? [i] : []));
    const center = centroid(
      members.map((i) => model.vectors[i]!),
      size,
    );
    const closeness = new Map(members.map((i) => [i, dotDense(model.vectors[i]!, center)]));
    members.sort((a, b) => closeness.get(b)! - closeness.get(a)! || a - b);
    const terms = topTerms(model, members, forms);
    groups.push({ terms, label: labelOf(terms), members });
  }
  return groups.sort((a, b) => b.members.length - a.members.length || a.members[0]! - b.members[0]!);
};

/**
 * Clusters texts without a model: Porter-stemmed unigrams and bigrams without stopwords, TF-IDF
 * with sublinear tf, spectral clustering of the cosine k-nearest-neighbour graph with k by
 * eigengap (or of embedding vectors when `embeddings` are given), then cosine average-linkage
 * inside each large cluster for sub-clusters, reported only when well separated (silhouette). Ids hash the namespace and the top terms, so a
 * regenerated report keeps the ids of clusters about the same thing. Largest clusters first.
 */
export const clusterItems = (items: readonly TextItem[], options: ClusterOptions = {}): Cluster[] => {
  const namespace = options.namespace ?? '';
  const ordered = [...items].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const tokens = ordered.map((item) => tokenize(item.text));
  const vectors = ordered.map((item) => options.embeddings?.get(item.id));
  const embeddings = vectors.every((v) => v && v.length > 0) ? (vectors as number[][]) : null;
  const top = group(tokens, { kind: 'spectral', maxClusters: options.maxClusters ?? 8, embeddings }) ?? [];
  const clusters = assignIds(
    'c',
    namespace,
    top.map((g) => ({
      terms: g.terms,
      label: g.label,
      memberIds: g.members.map((i) => ordered[i]!.id),
      members: g.members,
    })),
  );
  return clusters.map(({ members, ...cluster }) => ({
    ...cluster,
    subClusters: subClustersOf(cluster.id, members, tokens, ordered, options),
  }));
};

const subClustersOf = (
  parentId: string,
  members: readonly number[],
  tokens: readonly Token[][],
  ordered: readonly TextItem[],
  options: ClusterOptions,
): SubCluster[] => {
  if (members.length < (options.minSubClusterParent ?? 6)) return [];
  const inner = group(
    members.map((i) => tokens[i]!),
    { kind: 'agglomerative', maxClusters: options.maxSubClusters ?? 4, minSilhouette: MIN_SUB_SILHOUETTE },
  );
  if (!inner || inner.length < 2) return [];
  return assignIds(
    'sc',
    parentId,
    inner.map((g) => ({
      terms: g.terms,
      label: g.label,
      memberIds: g.members.map((i) => members[i]!).map((index) => ordered[index]!.id),
    })),
  );
};
