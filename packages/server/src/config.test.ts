import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'voice-eval-config-'));

describe('loadConfig', () => {
  it('generates the secrets once and keeps them in the data folder (embedded default)', () => {
    const dataDir = tmp();
    const first = loadConfig({ dataDir }, {});
    const second = loadConfig({ dataDir }, {});
    expect(first.jwtSecret).toBe(second.jwtSecret);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8').trim()).toBe(first.jwtSecret);
  });

  it('requires the secrets in production', () => {
    expect(() => loadConfig({ dataDir: tmp() }, { NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ dataDir: tmp() }, { NODE_ENV: 'production' })).toThrow(/jwtSecret/);
  });

  it('reads the environment; options win', () => {
    const config = loadConfig(
      { port: 4000 },
      { PORT: '5000', VOICE_EVAL_DATA_DIR: tmp(), VOICE_EVAL_CORS_ORIGINS: 'https://a.test, https://b.test' },
    );
    expect(config.port).toBe(4000);
    expect(config.corsOrigins).toEqual(['https://a.test', 'https://b.test']);
  });

  it('fails fast with every problem listed', () => {
    const env = { PORT: 'eighty', DATABASE_URL: 'not a url', VOICE_EVAL_DATA_DIR: tmp() };
    expect(() => loadConfig({}, env)).toThrow(/port[\s\S]*databaseUrl|databaseUrl[\s\S]*port/);
  });

  it('refuses an encryption key that is not 32 bytes', () => {
    expect(() => loadConfig({ dataDir: tmp(), encryptionKey: 'c2hvcnQ=' }, {})).toThrow(/32 bytes/);
  });
});
