import type { RecordingUrl } from '@voice-eval/contract';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserTitle, launchChromium, skipBrowser } from '../../../test/browser.js';
import { createSchema, upload } from '../../../test/factories/call-imports.js';
import { createHarness, type Harness } from '../../../test/harness.js';
import { encodeWav } from '../../voice/audio/index.js';

const SECONDS = 6;
const RATE = 8000;

describe.skipIf(skipBrowser)(browserTitle("a signed recording URL in Chromium's <audio>"), () => {
  let h: Harness;
  let browser: Browser;
  let signed: RecordingUrl;
  beforeAll(async () => {
    h = await createHarness({ workerConcurrency: 0 });
    const schemaId = await createSchema(h, h, [
      { name: 'conversation_id', type: 'conversation_id', is_required: true },
      { name: 'recording', type: 'recording_url', is_required: true },
    ]);
    // a stereo call: a 440 Hz tone on the agent's channel, silence on the caller's
    const tone = Int16Array.from({ length: SECONDS * RATE }, (_, i) =>
      Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / RATE)),
    );
    const wav = encodeWav({ sampleRate: RATE, channels: [tone, new Int16Array(tone.length)] });
    const files = [{ field: 'files' as const, name: 'call.wav', bytes: wav, type: 'audio/wav' }];
    const created = await upload(h, await h.as('MEMBER'), { schema_id: schemaId }, files);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const detail = await h.request('GET', `/api/v1/call-imports/${created.body.id}`, {
      headers: await h.as('READER'),
    });
    const row = detail.body.rows[0];
    const reply = await h.request(
      'GET',
      `/api/v1/call-imports/${row.call_import_id}/rows/${row.id}/recording-url`,
      {
        headers: await h.as('READER'),
      },
    );
    expect(reply.status, JSON.stringify(reply.body)).toBe(200);
    signed = reply.body;
    browser = await launchChromium();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('plays from the URL alone: metadata, duration, and a seek answered with a byte range', async () => {
    const page = await browser.newPage();
    const ranges: Array<{ range: string | undefined; status: number }> = [];
    page.on('response', async (res) => {
      if (res.url() === signed.url)
        ranges.push({ range: (await res.request().allHeaders()).range, status: res.status() });
    });
    await page.setContent('<audio preload="metadata"></audio>');
    const duration = await page.evaluate(async (src) => {
      const audio = document.querySelector('audio')!;
      const loaded = new Promise<void>((resolve, reject) => {
        audio.onloadedmetadata = () => resolve();
        audio.onerror = () => reject(new Error(`media error ${audio.error?.code}: ${audio.error?.message}`));
      });
      audio.src = src;
      await loaded;
      return audio.duration;
    }, signed.url);
    expect(duration).toBeCloseTo(SECONDS, 1);

    const position = await page.evaluate(async () => {
      const audio = document.querySelector('audio')!;
      const seeked = new Promise<void>((resolve) => {
        audio.onseeked = () => resolve();
      });
      audio.currentTime = 5;
      await seeked;
      return audio.currentTime;
    });
    expect(position).toBeCloseTo(5, 1);
    // Chromium asks for ranges; the server answers each with 206
    expect(ranges.length).toBeGreaterThan(0);
    expect(ranges.every((r) => r.range?.startsWith('bytes=') && r.status === 206)).toBe(true);
    await page.close();
  }, 120_000);
});
