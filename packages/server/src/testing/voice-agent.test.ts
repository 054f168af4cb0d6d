import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createFramePacer, decodeMulaw, encodeMulaw, toFrames } from '../voice/audio/index.js';
import { openMediaStream } from '../voice/media-stream/client.js';
import type { MediaStreamCloseInfo } from '../voice/media-stream/session.js';
import { CLINIC_GOODBYE, CLINIC_GREETING } from './clinic-agent.js';
import { createSpeechRegistry, synthesizeSpeech } from './speech.js';
import {
  startVoiceAgentDouble,
  type VoiceAgentDouble,
  type VoiceAgentDoubleOptions,
  type VoiceAgentStream,
} from './voice-agent.js';

const BOOK = "Hi, I'd like to book an appointment for a general checkup.";
const ASK_NAME = 'Sure, I can help you book an appointment. May I have your name, please?';
const BYE = "No, that's all. Thank you, goodbye!";
const SILENT_FRAME = encodeMulaw(new Int16Array(160));

const registry = createSpeechRegistry();
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const startAgent = async (options: VoiceAgentDoubleOptions = {}) => {
  const agent = await startVoiceAgentDouble({ registry, latencyMs: 300, speechSpeed: 2, ...options });
  cleanups.push(() => agent.close());
  return agent;
};

/** Resolves once `predicate` holds for the agent's first stream (checked on every stream event). */
const until = (agent: VoiceAgentDouble, predicate: (stream: VoiceAgentStream) => boolean) =>
  new Promise<VoiceAgentStream>((resolve) => {
    const check = () => {
      const stream = agent.streams[0];
      if (stream && predicate(stream)) {
        off();
        resolve(stream);
      }
    };
    const off = agent.on(check);
    check();
  });

/** The platform's side: sends the caller's audio (silence between turns) in real time, collects the agent's. */
const call = async (agent: VoiceAgentDouble, extra: { headers?: Record<string, string> } = {}) => {
  const opened = await openMediaStream({
    url: agent.url,
    callSid: 'CA-test',
    connectTimeoutMs: 5000,
    customParameters: { persona: 'Alex' },
    ...extra,
  });
  if (!opened.ok) throw new Error(opened.message);
  const { session } = opened;
  const queue: Int16Array[] = [];
  const heard: Array<{ pcm: Int16Array; at: number }> = [];
  const events: Array<{ kind: 'media' | 'clear' | 'mark'; at: number; name?: string }> = [];
  let sent = 0;
  session.onMedia((mulaw, at) => {
    heard.push({ pcm: decodeMulaw(mulaw), at });
    events.push({ kind: 'media', at });
  });
  session.onClear((at) => events.push({ kind: 'clear', at }));
  session.onMark((name, at) => {
    events.push({ kind: 'mark', at, name });
    session.sendMark(name); // played at once: the test plays nothing
  });
  const closed = new Promise<MediaStreamCloseInfo>((resolve) => session.onClose(resolve));
  const controller = new AbortController();
  const pacer = createFramePacer({ frameMs: 20, signal: controller.signal });
  let heldUntil = 0;
  void (async () => {
    while (!controller.signal.aborted) {
      await pacer.next().catch(() => undefined);
      // held: the frames due meanwhile go out at once after it, as the platform's absolute schedule sends them
      const held = heldUntil - performance.now();
      if (held > 0) await new Promise((resolve) => setTimeout(resolve, held));
      if (controller.signal.aborted) break;
      const frame = queue.shift();
      session.sendAudio(frame ? encodeMulaw(frame) : SILENT_FRAME);
      sent += 1;
    }
  })();
  cleanups.push(async () => {
    controller.abort();
    await session.stop();
  });
  return {
    session,
    events,
    closed,
    /** Queues the caller saying `text`; resolves when its last frame was sent. */
    say: (text: string) => {
      const pcm = synthesizeSpeech(text, { voice: 'alex' });
      registry.remember(text, pcm);
      queue.push(...toFrames(pcm, 8000));
      const last = sent + queue.length;
      return new Promise<void>((resolve) => {
        const poll = () => (sent >= last ? resolve() : setTimeout(poll, 20));
        poll();
      });
    },
    /** Resolves after `frames` more frames were sent. */
    frames: (frames: number) => {
      const target = sent + frames;
      return new Promise<void>((resolve) => {
        const poll = () => (sent >= target ? resolve() : setTimeout(poll, 20));
        poll();
      });
    },
    /** What the agent's audio says so far, laid out as a recorder with a jitter buffer would. */
    agentSaid: () => {
      const track = new Int16Array(Math.ceil(((heard.at(-1)?.at ?? 0) + 1000) * 8));
      let end = 0;
      for (const { pcm, at } of heard) {
        // contiguous while the agent streams; a pause (more than 3 frames late) is silence
        const start = Math.round(at * 8) > end + 480 ? Math.round(at * 8) : end;
        track.set(pcm.subarray(0, track.length - start), start);
        end = start + pcm.length;
      }
      return registry.recognize(track);
    },
    mediaCount: () => heard.length,
    /** Sends no frame for `ms`, then the ones due meanwhile at once (a platform held up elsewhere). */
    hold: (ms: number) => {
      heldUntil = performance.now() + ms;
    },
  };
};

describe('voice agent double', () => {
  it('greets on start, answers each caller turn after its latency, and marks each utterance', async () => {
    const agent = await startAgent({ auth: 'Bearer agent-key', latencyMs: 600 });
    const platform = await call(agent, { headers: { authorization: 'Bearer agent-key' } });
    await until(agent, (s) => s.said[0]?.endMs != null);
    await platform.say(BOOK);
    const stream = await until(agent, (s) => s.said[1]?.endMs != null && s.marks.length === 2);

    expect(stream.start).toMatchObject({ callSid: 'CA-test', customParameters: { persona: 'Alex' } });
    expect(stream.latencyMs).toBe(600);
    expect(stream.headers.authorization).toBe('Bearer agent-key');
    expect(stream.heard.map((h) => h.text)).toEqual([BOOK]);
    expect(stream.said.map((s) => [s.text, s.interrupted])).toEqual([
      [CLINIC_GREETING, false],
      [ASK_NAME, false],
    ]);
    expect(stream.said[0]!.startMs).toBeGreaterThanOrEqual(580);
    expect(stream.said[1]!.startMs - stream.heard[0]!.endMs).toBeGreaterThanOrEqual(570);
    expect(platform.agentSaid()).toEqual([CLINIC_GREETING, ASK_NAME]);
    expect(platform.events.filter((e) => e.kind === 'mark').map((e) => e.name)).toEqual(['said-1', 'said-2']);
    expect(stream.marks.map((m) => m.name)).toEqual(['said-1', 'said-2']);
    expect(stream.protocolErrors).toEqual([]);
  });

  it('hears one utterance when the whole process stalls while the caller speaks', async () => {
    // a busy test process (the platform, its database and the double share one event loop):
    // after the stall, the platform's late frames are due before the double's stall timer looks
    const agent = await startAgent({ latencyMs: 600 });
    const platform = await call(agent);
    await until(agent, (s) => s.said[0]?.endMs != null);
    const spoken = platform.say(BOOK);
    await platform.frames(40);
    const until800 = performance.now() + 800;
    while (performance.now() < until800); // blocks the event loop, as synchronous work does
    await spoken;
    const stream = await until(agent, (s) => s.said[1]?.endMs != null);
    expect(stream.heard.map((h) => h.text)).toEqual([BOOK]);
    expect(stream.said[1]!.text).toBe(ASK_NAME);
  });

  it('answers no sooner than its latency on the caller’s timeline when the platform’s frames come late', async () => {
    // the reply timer runs on the wall clock; here it fires while the caller's audio is held up
    const agent = await startAgent({ latencyMs: 600 });
    const platform = await call(agent);
    await until(agent, (s) => s.said[0]?.endMs != null);
    await platform.say(BOOK);
    await until(agent, (s) => s.heard.length === 1);
    platform.hold(1500);
    const stream = await until(agent, (s) => s.said[1]?.endMs != null);
    expect(stream.heard.map((h) => h.text)).toEqual([BOOK]);
    expect(stream.said[1]!.heardMs - stream.heard[0]!.endMs).toBeGreaterThanOrEqual(600);
  });

  it('answers a platform that sends nothing between turns on the wall clock', async () => {
    const agent = await startAgent({ latencyMs: 600 });
    const platform = await call(agent);
    await until(agent, (s) => s.said[0]?.endMs != null);
    await platform.say(BOOK);
    // no frame after the speech for 5 s: the ear hears the silence it was not sent, and the reply
    // comes while nothing is sent (not once the frames are back)
    const held = performance.now() + 5000;
    platform.hold(5000);
    const stream = await until(agent, (s) => s.said[1] !== undefined);
    expect(performance.now()).toBeLessThan(held);
    expect(stream.said[1]!.text).toBe(ASK_NAME);
  });

  it('yields to a caller who barges in: stops its audio and sends clear', async () => {
    const agent = await startAgent({ speechSpeed: 1, latencyMs: 200 });
    const platform = await call(agent);
    await until(agent, (s) => s.said.length === 1);
    await platform.frames(40);
    const spoken = platform.say('My name is Alex Morgan.');
    const stream = await until(agent, (s) => s.clears.length === 1);
    agent.setOptions({ speechSpeed: 2 }); // its reply: shorter
    await spoken;
    await until(agent, (s) => s.marks.length === 1);

    expect(stream.said[0]).toMatchObject({ text: CLINIC_GREETING, interrupted: true });
    expect(stream.clears[0]).toBeGreaterThanOrEqual(stream.heard[0]?.startMs ?? stream.said[0]!.startMs);
    const clear = platform.events.findIndex((e) => e.kind === 'clear');
    const after = platform.events.slice(clear + 1);
    expect(after.length).toBeGreaterThan(0);
    expect(after[0]!.at - platform.events[clear]!.at).toBeGreaterThanOrEqual(200); // nothing until its reply
    expect(platform.events.filter((e) => e.kind === 'mark').map((e) => e.name)).toEqual(['said-2']);
    const [greeting, reply] = platform.agentSaid();
    expect(CLINIC_GREETING.startsWith(greeting!)).toBe(true);
    expect(greeting).not.toBe(CLINIC_GREETING);
    expect(reply).toBe(stream.said[1]!.text);
  });

  it('talks on over a barge-in when told to ignore it', async () => {
    const agent = await startAgent({ speechSpeed: 1, latencyMs: 200, ignoreBargeIn: true });
    const platform = await call(agent);
    await until(agent, (s) => s.said.length === 1);
    agent.setOptions({ speechSpeed: 2 }); // its reply: shorter
    await platform.frames(40);
    await platform.say('My name is Alex Morgan.');
    const stream = await until(agent, (s) => s.said[1]?.endMs != null);
    expect(stream.clears).toEqual([]);
    expect(stream.said.map((s) => s.interrupted)).toEqual([false, false]);
    expect(platform.events.some((e) => e.kind === 'clear')).toBe(false);
    expect(platform.agentSaid()[0]).toBe(CLINIC_GREETING);
  });

  it('talks over the caller when told to', async () => {
    const agent = await startAgent({ talkOverCaller: true });
    const platform = await call(agent);
    await until(agent, (s) => s.said[0]?.endMs != null);
    await platform.say(BOOK);
    const stream = await until(agent, (s) => s.heard.length === 1 && s.said.length === 2);
    expect(stream.said[1]!.text).toBe(ASK_NAME);
    expect(stream.said[1]!.startMs).toBeLessThan(stream.heard[0]!.endMs);
    expect(stream.heard[0]!.text).toBe(BOOK);
  });

  it('hangs up after its goodbye when told to', async () => {
    const agent = await startAgent({ hangUpAfterGoodbye: true });
    const platform = await call(agent);
    await until(agent, (s) => s.said[0]?.endMs != null);
    await platform.say(BYE);
    expect(await platform.closed).toEqual({ code: 1000, reason: 'goodbye', byAgent: true });
    expect(platform.agentSaid()).toEqual([CLINIC_GREETING, CLINIC_GOODBYE]);
    expect((await until(agent, (s) => s.closed !== null)).closed).toMatchObject({
      code: 1000,
      byAgent: true,
    });
  });

  it('drops the socket after some turns, or goes silent', async () => {
    const closing = await startAgent({ closeAfterTurns: 1 });
    const first = await call(closing);
    expect(await first.closed).toEqual({ code: 1011, reason: 'agent closed the stream', byAgent: true });
    expect(first.agentSaid()).toEqual([CLINIC_GREETING]);

    const silent = await startAgent({ silentAfterTurns: 1, latencyMs: 0 });
    const second = await call(silent);
    await until(silent, (s) => s.said[0]?.endMs != null);
    await second.say("Yes, that's correct.");
    await until(silent, (s) => s.heard.length === 1);
    const before = second.mediaCount();
    await second.frames(25); // well past its latency
    expect(second.mediaCount()).toBe(before);
    expect(silent.streams[0]!.said).toHaveLength(1);
  });

  it('refuses an upgrade without its Authorization header', async () => {
    const agent = await startAgent({ auth: 'Bearer right' });
    const opened = await openMediaStream({
      url: agent.url,
      callSid: 'CA1',
      connectTimeoutMs: 5000,
      headers: { authorization: 'Bearer wrong' },
    });
    expect(opened).toMatchObject({ ok: false, code: 'agent_unreachable', message: /401/ });
    expect(agent.refused()).toBe(1);
    expect(agent.streams).toEqual([]);
  });

  it('records what the platform sends that breaks the protocol', async () => {
    const agent = await startAgent({ silentAfterTurns: 0 });
    const ws = new WebSocket(agent.url);
    cleanups.push(() => ws.terminate());
    await new Promise((resolve) => ws.once('open', resolve));
    ws.send(JSON.stringify({ event: 'media', sequenceNumber: '1', streamSid: 'MZ1', media: {} }));
    ws.send('hello');
    ws.send(JSON.stringify({ event: 'connected', protocol: 'Call', version: '1.0.0' }));
    ws.send(
      JSON.stringify({
        event: 'stop',
        sequenceNumber: '4',
        streamSid: 'MZ1',
        stop: { accountSid: 'AC', callSid: 'CA' },
      }),
    );
    const stream = await until(agent, (s) => s.protocolErrors.length === 4);
    expect(stream.protocolErrors).toEqual([
      expect.stringMatching(/media\.(chunk|track|payload|timestamp)/),
      'not JSON',
      'sequenceNumber 4 where 1 was due',
      'stop for stream MZ1',
    ]);
  });
});
