// white-box: the voice bench's far side (`voice.ts`), run in a child process
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { resample } from '@voice-eval/server/bench-internals';
import { createSpeechRegistry, startVoiceAgentDouble, synthesizeSpeech } from '@voice-eval/server/testing';

/**
 * What a voice call talks to, off the engine's thread: the voice agent double, and the persona's
 * speech provider (text to speech at 24 kHz, speech to text) on the same speech registry. In
 * production these are other machines; their synchronous work (synthesis, fingerprinting,
 * recognition: tens of ms at a time) in the engine's process would be measured as the engine's
 * pacing jitter and CPU, so they run here, in a process of their own (forked with IPC and the
 * structured-clone serialisation, so PCM crosses as typed arrays).
 */
export type DoublesRequest =
  | { id: number; kind: 'start'; latencyMs: number }
  | { id: number; kind: 'speak'; text: string }
  | { id: number; kind: 'hear'; pcm: Int16Array }
  | { id: number; kind: 'usage' }
  | { id: number; kind: 'close' };

export type DoublesReply =
  | { id: number; kind: 'started'; url: string }
  | { id: number; kind: 'spoken'; pcm: Int16Array }
  | { id: number; kind: 'heard'; text: string }
  | { id: number; kind: 'usage'; activeMs: number; delayP99Ms: number; delayMaxMs: number }
  | { id: number; kind: 'closed' };

const registry = createSpeechRegistry();
/** The provider's speech of each text, synthesised once: a cache, as a TTS front end keeps. */
const voices = new Map<string, Int16Array>();
let agent: Awaited<ReturnType<typeof startVoiceAgentDouble>> | null = null;
/** How late this process's event loop ran (its agent streams' frames go out no more on time), since the last `usage`. */
const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();

const handle = async (request: DoublesRequest): Promise<DoublesReply> => {
  switch (request.kind) {
    case 'start':
      agent = await startVoiceAgentDouble({
        registry,
        latencyMs: request.latencyMs,
        hangUpAfterGoodbye: true,
      });
      return { id: request.id, kind: 'started', url: agent.url };
    case 'speak': {
      let pcm = voices.get(request.text);
      if (!pcm) {
        pcm = synthesizeSpeech(request.text, { sampleRate: 24_000 });
        voices.set(request.text, pcm);
        // the agent double recognises the caller by the 8 kHz audio the engine will send
        registry.remember(request.text, resample(pcm, 24_000, 8_000));
      }
      return { id: request.id, kind: 'spoken', pcm };
    }
    case 'hear':
      return { id: request.id, kind: 'heard', text: registry.recognize(request.pcm).join(' ') };
    case 'usage': {
      const usage = {
        activeMs: performance.eventLoopUtilization().active,
        delayP99Ms: delay.percentile(99) / 1e6,
        delayMaxMs: delay.max / 1e6,
      };
      delay.reset();
      return { id: request.id, kind: 'usage', ...usage };
    }
    case 'close':
      await agent?.close();
      return { id: request.id, kind: 'closed' };
  }
};

process.on('message', (request: DoublesRequest) => {
  void handle(request).then((reply) => process.send!(reply));
});
