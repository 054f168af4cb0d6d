import type { Token } from './text.js';

/** A sparse, L2-normalised vector: term indices ascending, with their weights. */
export type SparseVector = { indices: number[]; values: number[] };

/** Vectors of a corpus and the vocabulary their indices point into (alphabetical, so stable). */
export type TfIdf = { vocabulary: string[]; idf: number[]; vectors: SparseVector[] };

/** Terms of one document: its unigrams and the bigrams of adjacent content words. */
export const featuresOf = (tokens: readonly Token[]): string[] => {
  const features = tokens.map((token) => token.term);
  for (let i = 1; i < tokens.length; i++) features.push(`${tokens[i - 1]!.term} ${tokens[i]!.term}`);
  return features;
};

const documentFrequencies = (documents: ReadonlyArray<readonly string[]>): Map<string, number> => {
  const df = new Map<string, number>();
  for (const features of documents) for (const f of new Set(features)) df.set(f, (df.get(f) ?? 0) + 1);
  return df;
};

const normalise = (entries: Array<[number, number]>): SparseVector => {
  entries.sort((a, b) => a[0] - b[0]);
  const norm = Math.sqrt(entries.reduce((sum, [, v]) => sum + v * v, 0)) || 1;
  return { indices: entries.map(([i]) => i), values: entries.map(([, v]) => v / norm) };
};

/** TF-IDF with sublinear term frequency (1 + ln tf) and smoothed idf (ln((1 + N) / (1 + df)) + 1). */
export const tfidf = (documents: ReadonlyArray<readonly string[]>): TfIdf => {
  const df = documentFrequencies(documents);
  const vocabulary = [...df.keys()].sort();
  const index = new Map(vocabulary.map((term, i) => [term, i]));
  const n = documents.length;
  const idf = vocabulary.map((term) => Math.log((1 + n) / (1 + df.get(term)!)) + 1);
  const vectors = documents.map((features) => {
    const tf = new Map<number, number>();
    for (const f of features) {
      const i = index.get(f);
      if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
    }
    return normalise([...tf].map(([i, count]) => [i, (1 + Math.log(count)) * idf[i]!]));
  });
  return { vocabulary, idf, vectors };
};

/** Cosine similarity of two normalised sparse vectors (their dot product). */
export const cosine = (a: SparseVector, b: SparseVector): number => {
  let sum = 0;
  let i = 0;
  let j = 0;
  while (i < a.indices.length && j < b.indices.length) {
    const ai = a.indices[i]!;
    const bj = b.indices[j]!;
    if (ai === bj) sum += a.values[i++]! * b.values[j++]!;
    else if (ai < bj) i++;
    else j++;
  }
  return sum;
};

/** The mean of some vectors, as a dense array over the vocabulary. */
export const centroid = (vectors: readonly SparseVector[], size: number): Float64Array => {
  const out = new Float64Array(size);
  for (const v of vectors) for (let k = 0; k < v.indices.length; k++) out[v.indices[k]!]! += v.values[k]!;
  if (vectors.length > 0) for (let k = 0; k < size; k++) out[k]! /= vectors.length;
  return out;
};

/** Dot product of a sparse vector with a dense one. */
export const dotDense = (v: SparseVector, dense: Float64Array): number => {
  let sum = 0;
  for (let k = 0; k < v.indices.length; k++) {
    const index = v.indices[k]!;
    sum += v.values[k]! * dense[index]!;
  }
  return sum;
};
