import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
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

  it('takes a cheaper password hash only for tests, and only a power of two', () => {
    expect(loadConfig({ dataDir: tmp() }, {}).passwordHashCost).toBe(16_384);
    expect(loadConfig({ dataDir: tmp(), nodeEnv: 'test', passwordHashCost: 1024 }, {}).passwordHashCost).toBe(
      1024,
    );
    expect(() => loadConfig({ dataDir: tmp(), passwordHashCost: 1024 }, {})).toThrow(
      /passwordHashCost: is below 16384/,
    );
    expect(() => loadConfig({ dataDir: tmp(), passwordHashCost: 20_000 }, {})).toThrow(/power of two/);
  });

  it('refuses an encryption key that is not 32 bytes', () => {
    expect(() => loadConfig({ dataDir: tmp(), encryptionKey: 'c2hvcnQ=' }, {})).toThrow(/32 bytes/);
  });

  describe('trust proxy (VOICE_EVAL_TRUST_PROXY)', () => {
    const trustProxy = (value: string) =>
      loadConfig({}, { VOICE_EVAL_DATA_DIR: dataDir, VOICE_EVAL_TRUST_PROXY: value }).trustProxy;
    const dataDir = tmp();

    it.each([
      ['false', false],
      ['true', true],
      [' TRUE ', true],
      ['0', 0],
      ['2', 2],
      ['loopback', ['loopback']],
      ['loopback, linklocal,uniquelocal', ['loopback', 'linklocal', 'uniquelocal']],
      ['10.0.0.1', ['10.0.0.1']],
      ['10.0.0.0/8, 192.168.0.0/255.255.0.0', ['10.0.0.0/8', '192.168.0.0/255.255.0.0']],
      ['fd00::/8,::1', ['fd00::/8', '::1']],
    ])('reads %j as %j, a value Express accepts', (text, expected) => {
      const value = trustProxy(text);
      expect(value).toEqual(expected);
      // Express compiles the setting when it is set; proxy-addr throws on a bad entry
      expect(() => express().set('trust proxy', value)).not.toThrow();
    });

    it.each([
      'yes',
      '-1',
      '1.5',
      'loopbak',
      '10.0.0.256',
      '10.0.0.0/33',
      '10.0.0.0/0',
      '10.0.0.0/255.0.255.0',
      'fe80::1%eth0',
      '10.0.0.1,,nope',
      ',',
    ])('lists %j as a config problem instead of failing at the first request', (text) => {
      expect(() => trustProxy(text)).toThrow(ConfigError);
      expect(() => trustProxy(text)).toThrow(/Invalid voice-eval configuration:\n {2}- trustProxy: /);
    });

    it('names each bad entry of a list', () => {
      expect(() => trustProxy('loopback, 10.0.0.0/40, proxy.internal')).toThrow(
        /trustProxy: "10\.0\.0\.0\/40"[\s\S]*trustProxy: "proxy\.internal"/,
      );
    });

    it('takes a list from the options too', () => {
      expect(loadConfig({ dataDir, trustProxy: ['loopback'] }, {}).trustProxy).toEqual(['loopback']);
      expect(() => loadConfig({ dataDir, trustProxy: 1.5 }, {})).toThrow(/trustProxy: a hop count/);
    });
  });

  it('serves the console, and sets the refresh cookie it needs, unless told otherwise', () => {
    const dataDir = tmp();
    expect(loadConfig({ dataDir }, {})).toMatchObject({ console: true, refreshTokenCookie: true });
    expect(loadConfig({}, { VOICE_EVAL_DATA_DIR: dataDir, VOICE_EVAL_CONSOLE: 'false' })).toMatchObject({
      console: false,
      refreshTokenCookie: false,
    });
    expect(
      loadConfig(
        {},
        {
          VOICE_EVAL_DATA_DIR: dataDir,
          VOICE_EVAL_CONSOLE: 'false',
          VOICE_EVAL_REFRESH_TOKEN_COOKIE: 'true',
        },
      ),
    ).toMatchObject({ console: false, refreshTokenCookie: true });
    expect(loadConfig({ dataDir, refreshTokenCookie: false }, {}).refreshTokenCookie).toBe(false);
    expect(() => loadConfig({}, { VOICE_EVAL_DATA_DIR: dataDir, VOICE_EVAL_CONSOLE: 'maybe' })).toThrow(
      /console/,
    );
  });

  it('reads the auth rate limit and the ambient-audio size limit from the environment', () => {
    const config = loadConfig(
      {},
      {
        VOICE_EVAL_DATA_DIR: tmp(),
        VOICE_EVAL_AUTH_RATE_LIMIT_PER_MINUTE: '7',
        VOICE_EVAL_AMBIENT_AUDIO_LIMIT_BYTES: '1024',
      },
    );
    expect(config.authRateLimitPerMinute).toBe(7);
    expect(config.ambientAudioLimitBytes).toBe(1024);
    expect(() =>
      loadConfig({}, { VOICE_EVAL_DATA_DIR: tmp(), VOICE_EVAL_AUTH_RATE_LIMIT_PER_MINUTE: 'many' }),
    ).toThrow(/authRateLimitPerMinute/);
  });
});

describe('blob store configuration', () => {
  it('defaults to the filesystem and reads the S3 settings from the environment', () => {
    expect(loadConfig({ dataDir: tmp() }, {})).toMatchObject({ blobStore: 'filesystem', s3Prefix: '' });
    const config = loadConfig(
      {},
      {
        VOICE_EVAL_DATA_DIR: tmp(),
        VOICE_EVAL_BLOB_STORE: 's3',
        VOICE_EVAL_S3_BUCKET: 'voice-eval-blobs',
        VOICE_EVAL_S3_PREFIX: '/prod/eu/',
        VOICE_EVAL_S3_ENDPOINT: 'http://minio.internal:9000',
        VOICE_EVAL_S3_REGION: 'eu-west-1',
        VOICE_EVAL_S3_FORCE_PATH_STYLE: 'true',
      },
    );
    expect(config).toMatchObject({
      blobStore: 's3',
      s3Bucket: 'voice-eval-blobs',
      s3Prefix: 'prod/eu',
      s3Endpoint: 'http://minio.internal:9000',
      s3Region: 'eu-west-1',
      s3ForcePathStyle: true,
    });
  });

  it('lists every bad blob setting at once, without a stack trace in the message', () => {
    const env = {
      VOICE_EVAL_DATA_DIR: tmp(),
      VOICE_EVAL_BLOB_STORE: 'gcs',
      VOICE_EVAL_S3_BUCKET: 'Not_A_Bucket',
      VOICE_EVAL_S3_PREFIX: 'a/../b',
      VOICE_EVAL_S3_ENDPOINT: 'minio:9000/x y',
      VOICE_EVAL_S3_FORCE_PATH_STYLE: 'maybe',
    };
    let message = '';
    try {
      loadConfig({}, env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const key of ['blobStore', 's3Bucket', 's3Prefix', 's3Endpoint', 's3ForcePathStyle']) {
      expect(message).toMatch(new RegExp(`^  - ${key}: `, 'm'));
    }
    expect(message).not.toMatch(/\n\s+at /);
  });

  it('requires a bucket for the s3 store, listed with the other problems', () => {
    const env = { VOICE_EVAL_DATA_DIR: tmp(), VOICE_EVAL_BLOB_STORE: 's3', PORT: 'eighty' };
    expect(() => loadConfig({}, env)).toThrow(/port: [\s\S]*s3Bucket: is required when blobStore is s3/);
  });
});
