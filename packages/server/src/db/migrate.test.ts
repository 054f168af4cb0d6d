import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIGRATION_NAMES } from './migrate.js';

describe('migrations', () => {
  it('lists every file of migrations/, in name order', () => {
    const files = readdirSync(new URL('./migrations/', import.meta.url))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => name.replace(/\.ts$/, ''))
      .sort();
    expect(MIGRATION_NAMES).toEqual(files);
  });
});
