import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { adjustedRandIndex } from './ari.js';
import { clusterItems } from './cluster-items.js';
import { symmetricEigen } from './eigen.js';

describe('symmetricEigen', () => {
  it('returns eigenpairs that satisfy A v = lambda v, values ascending', () => {
    const n = 30;
    let seed = 7;
    const random = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    const a = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = i; j < n; j++) {
        const v = random();
        a[i * n + j] = v;
        a[j * n + i] = v;
      }
    const { values, vectors } = symmetricEigen(a, n);
    for (let c = 0; c < n; c++) {
      if (c > 0) expect(values[c]!).toBeGreaterThanOrEqual(values[c - 1]!);
      for (let i = 0; i < n; i++) {
        let sum = 0;
        for (let k = 0; k < n; k++) sum += a[i * n + k]! * vectors[k * n + c]!;
        expect(sum).toBeCloseTo(values[c]! * vectors[i * n + c]!, 9);
      }
    }
  });
});

/** Six CLINC150 intents from six domains (bench/data), 40 texts each: human-written, not templated. */
const realDraw = () => {
  const wanted = ['freeze_account', 'card_declined', 'recipe', 'play_music', 'uber', 'book_flight'];
  const rows = readFileSync(new URL('../../../../bench/data/clinc150-subset.jsonl', import.meta.url), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { intent: string; text: string });
  return wanted.flatMap((intent) =>
    rows
      .filter((row) => row.intent === intent)
      .slice(0, 40)
      .map((row, i) => ({ id: `${intent}-${i}`, text: row.text, intent })),
  );
};

describe('clusterItems on human-written text', () => {
  it('recovers six intents from six domains (ARI >= 0.8)', () => {
    const items = realDraw();
    const clusters = clusterItems(items);
    const clusterOf = new Map(clusters.flatMap((c) => c.memberIds.map((id) => [id, c.id])));
    const ari = adjustedRandIndex(
      items.map((item) => item.intent),
      items.map((item) => clusterOf.get(item.id)),
    );
    expect(ari).toBeGreaterThanOrEqual(0.8);
  });

  it('clusters on embedding vectors when every item has one', () => {
    const items = realDraw().slice(0, 80);
    // vectors that say "two groups" by the index parity, whatever the words: a centre per parity
    // plus seeded noise
    let seed = 11;
    const noise = () => {
      seed = (seed * 16807) % 2147483647;
      return (seed / 2147483647 - 0.5) * 0.6;
    };
    const centre = (i: number) => Array.from({ length: 8 }, (_, d) => (d % 2 === i % 2 ? 1 : 0));
    const embeddings = new Map(items.map((item, i) => [item.id, centre(i).map((v) => v + noise())]));
    const clusters = clusterItems(items, { embeddings });
    expect(clusters).toHaveLength(2);
    for (const cluster of clusters) {
      const parities = new Set(cluster.memberIds.map((id) => items.findIndex((item) => item.id === id) % 2));
      expect(parities.size).toBe(1);
    }
  });
});
