import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DoubleReply } from '@voice-eval/server/testing';
import { chatReply } from '@voice-eval/server/testing';
import type { CallMetrics } from '../src/setup.js';

/** A short silent WAV file (8 kHz, mono, 16-bit PCM), enough for the server's format check. */
export const silentWav = (samples = 800): Buffer => {
  const data = samples * 2;
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(16_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data, 40);
  return Buffer.concat([header, Buffer.alloc(data)]);
};

/** A loopback server of call recordings: `/<name>.wav` answers a WAV file, anything else 404. */
export const serveRecordings = async () => {
  const wav = silentWav();
  const server = createServer((req, res) => {
    if (req.method === 'GET' && /^\/[\w-]+\.wav$/.test(req.url ?? '')) {
      res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': wav.length }).end(wav);
    } else {
      res.writeHead(404).end();
    }
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  const { port } = server.address() as AddressInfo;
  return {
    url: (name: string) => `http://127.0.0.1:${port}/${name}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

const cell = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** CSV text with the agent's columns. */
export const callsCsv = (
  rows: ReadonlyArray<{ id: string; agent?: string; recording?: string; transcript?: string }>,
) =>
  [
    'Call ID,Agent,Recording URL,Transcript',
    ...rows.map((r) => [r.id, r.agent ?? 'Ava', r.recording ?? '', r.transcript ?? ''].map(cell).join(',')),
  ].join('\n');

/** The diarisation model's reply for one recording: agent and caller turns. */
export const diarised = (agent: string, user: string): DoubleReply =>
  chatReply({
    turns: [
      { speaker: 'agent', text: agent },
      { speaker: 'user', text: user },
    ],
  });

/** The judge's reply for one call: an outcome label and whether identity was verified. */
export const judged = (metrics: CallMetrics, outcome: string, verified: boolean): DoubleReply =>
  chatReply({
    scores: [
      { key: metrics.outcome.id, value: outcome, rationale: `The call ended ${outcome}.`, evidence: [] },
      { key: metrics.identity.id, value: verified, rationale: 'Checked the account.', evidence: [] },
    ],
    discovered: [],
  });
