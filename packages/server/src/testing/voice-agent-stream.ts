import WebSocket from 'ws';
import { createFramePacer, decodeMulaw, encodeMulaw, samplesPerFrame } from '../voice/audio/index.js';
import { type AgentMessage, parsePlatformMessage } from '../voice/media-stream/protocol.js';
import { nextClinicTurn } from './clinic-agent.js';
import { isSlowCall } from './slow-share.js';
import { type SpeechRegistry, synthesizeSpeech } from './speech.js';
import type { VoiceAgentBehaviour, VoiceAgentEvent, VoiceAgentStream } from './voice-agent.js';
import { createCallerEar, type HeardSpeech, joinFrames } from './voice-agent-ear.js';

/**
 * One Media Stream as the voice agent double serves it: it validates what the platform sends,
 * hears the caller through a VAD and the speech registry, and answers with the clinic script as
 * synthesised μ-law speech paced in real time (see `voice-agent.ts` for the options).
 */

const RATE = 8000;
const FRAME = samplesPerFrame(RATE);
const FRAME_MS = (FRAME * 1000) / RATE;
/** No caller frame for this long while a reply waits for the caller's audio: the platform stopped; reply. */
const AUDIO_WAIT_LIMIT_MS = 2000;

/** Synthesised μ-law speech by voice, speed and text, shared by a double's streams. */
export type VoicedCache = Map<string, Uint8Array>;

/** Serves one stream on `ws`; `record` fills in as it goes. */
export function serveVoiceAgentStream(
  ws: WebSocket,
  record: VoiceAgentStream,
  behaviour: () => VoiceAgentBehaviour,
  speech: { registry: SpeechRegistry; voiced: VoicedCache },
  notify: (event: VoiceAgentEvent) => void,
  vadHangoverMs: number,
): void {
  const { registry, voiced } = speech;
  let [connected, nextSequence, agentTurns, chunks, samplesIn] = [false, 1, 0, 0, 0];
  let streamSid: string | null = null;
  let startedAt = performance.now();
  const callerTurns: string[] = [];
  // answeredEarly: talked over this turn already; mergeNext: a pending reply was cancelled by more speech
  let [answeredEarly, mergeNext, closedByAgent, ended] = [false, false, false, false];
  let speaking: { controller: AbortController; done: Promise<void> } | null = null;
  let replyTimer: NodeJS.Timeout | undefined;
  /**
   * The caller's audio time (ms) the pending reply waits for: `latencyMs` after the caller's
   * speech ended. The reply timer runs on the wall clock; when it fires before that much audio has
   * arrived (the platform's frames delayed on a busy machine), the reply waits for the frames, so
   * the agent never answers sooner than its latency on the call's own timeline. A platform that
   * sends nothing between turns has no such audio: its replies keep to the wall clock.
   */
  let replyAtAudioMs: number | null = null;
  let audioWait: NodeJS.Timeout | undefined;

  const now = () => performance.now() - startedAt;
  /** This call's latency: the slow share's when the call is one of it (read live, as every option). */
  const latency = () => {
    const { latencyMs, slowShare } = behaviour();
    const callSid = record.start?.callSid;
    const slow = slowShare !== null && callSid !== undefined && isSlowCall(callSid, slowShare);
    record.latencyMs = slow ? slowShare.latencyMs : latencyMs;
    return record.latencyMs;
  };
  const live = () => !ended && ws.readyState === WebSocket.OPEN;
  const silent = () => {
    const limit = behaviour().silentAfterTurns;
    return limit !== null && agentTurns >= limit;
  };
  const error = (reason: string) => {
    record.protocolErrors.push(reason);
    notify('error');
  };
  const send = (message: AgentMessage) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };
  const close = (code: number, reason: string) => {
    closedByAgent = true;
    ws.close(code, reason);
  };

  /**
   * The audio of `text`, synthesised and remembered once for every stream of the double: synthesis
   * blocks the event loop it shares with the platform in tests (concurrent calls would each stall
   * it), so replies are voiced while the agent waits to answer, not once it has started talking
   * (where a stall would open a gap in the agent's audio no real agent has).
   */
  const voice = (text: string) => {
    const { voice: name, speechSpeed } = behaviour();
    const key = `${name}|${speechSpeed}|${text}`;
    let mulaw = voiced.get(key);
    if (!mulaw) {
      const pcm = synthesizeSpeech(text, { voice: name, speed: speechSpeed, sampleRate: RATE });
      registry.remember(text, pcm);
      mulaw = encodeMulaw(pcm);
      voiced.set(key, mulaw);
    }
    return mulaw;
  };

  /** Resolves once the platform sends back mark `name`, or on `signal`'s abort. */
  const echoes = new Map<string, () => void>();
  const markEchoed = (name: string, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      const done = () => {
        echoes.delete(name);
        signal.removeEventListener('abort', done);
        resolve();
      };
      echoes.set(name, done);
      signal.addEventListener('abort', done, { once: true });
    });

  const speak = async (text: string, endCall: boolean, controller: AbortController) => {
    const turn = ++agentTurns;
    const mulaw = voice(text);
    const entry: VoiceAgentStream['said'][number] = {
      text,
      startMs: now(),
      heardMs: 0,
      endMs: null,
      interrupted: false,
    };
    const pacer = createFramePacer({ frameMs: FRAME_MS, signal: controller.signal });
    const ahead = Math.round(behaviour().sendAheadMs / FRAME_MS);
    for (let at = 0; at < mulaw.length; at += FRAME) {
      // the first `ahead` frames after the first go out at once, the rest one per 20 ms after them
      if (at === 0 || at / FRAME > ahead) await pacer.next().catch(() => undefined);
      if (controller.signal.aborted || !live()) break;
      if (at === 0) {
        entry.startMs = now();
        entry.heardMs = ear.audioMs();
        record.said.push(entry);
        notify('said');
      }
      const payload = Buffer.from(mulaw.subarray(at, at + FRAME)).toString('base64');
      send({ event: 'media', streamSid: streamSid!, media: { payload } });
    }
    if (live() && !controller.signal.aborted) {
      send({ event: 'mark', streamSid: streamSid!, mark: { name: `said-${turn}` } });
      // sent ahead, it is still talking until the platform has played it all (or it yields)
      if (ahead > 0) await markEchoed(`said-${turn}`, controller.signal);
    }
    entry.endMs = now();
    entry.interrupted = controller.signal.aborted;
    if (record.said.includes(entry)) notify('said');
    if (!live() || entry.interrupted) return;
    const { hangUpAfterGoodbye, closeAfterTurns } = behaviour();
    if (endCall && hangUpAfterGoodbye) close(1000, 'goodbye');
    else if (closeAfterTurns !== null && agentTurns >= closeAfterTurns)
      close(1011, 'agent closed the stream');
  };

  /** Says the script's next turn, after the current utterance if it is still talking (ignoreBargeIn). */
  const respond = async () => {
    while (speaking) await speaking.done;
    if (silent() || !live()) return;
    const reply = nextClinicTurn(callerTurns, behaviour().clinic);
    const controller = new AbortController();
    const done = speak(reply.text, reply.endCall, controller);
    speaking = { controller, done };
    await done;
    if (speaking?.controller === controller) speaking = null;
  };
  const cancelReply = () => {
    clearTimeout(replyTimer);
    clearTimeout(audioWait);
    [replyTimer, audioWait, replyAtAudioMs] = [undefined, undefined, null];
  };
  const reply = () => {
    cancelReply();
    void respond();
  };
  /** Replies once the caller's audio has reached the reply's audio time, or stopped coming. */
  const awaitAudio = () => {
    if (replyAtAudioMs === null || ear.audioMs() >= replyAtAudioMs) return reply();
    const heard = ear.frames();
    audioWait = setTimeout(() => {
      // the sockets first: in a process that stalled, frames sent meanwhile are waiting to be read
      setImmediate(() => {
        if (replyAtAudioMs === null) return;
        if (ear.frames() === heard) reply();
        else awaitAudio();
      });
    }, AUDIO_WAIT_LIMIT_MS);
  };
  /** Replies once `delayMs` have passed and the caller's audio reached `atAudioMs` (if given). */
  const respondIn = (delayMs: number, atAudioMs: number | null = null) => {
    cancelReply();
    replyAtAudioMs = atAudioMs;
    replyTimer = setTimeout(
      () => {
        replyTimer = undefined;
        awaitAudio();
      },
      Math.max(0, delayMs),
    );
    if (!silent()) voice(nextClinicTurn(callerTurns, behaviour().clinic).text);
  };
  /** After audio arrives: a reply waiting for it is due once it reaches the reply's audio time. */
  const replyIfAudioCaughtUp = () => {
    if (audioWait && replyAtAudioMs !== null && ear.audioMs() >= replyAtAudioMs) reply();
  };

  const addCallerTurn = (text: string) => {
    if (mergeNext && callerTurns.length > 0) callerTurns[callerTurns.length - 1] += ` ${text}`;
    else callerTurns.push(text);
    mergeNext = false;
  };

  const onCallerStart = () => {
    if (replyTimer || replyAtAudioMs !== null) {
      cancelReply();
      mergeNext = true;
    }
    if (!speaking || behaviour().ignoreBargeIn) return;
    speaking.controller.abort();
    send({ event: 'clear', streamSid: streamSid! });
    record.clears.push(now());
    notify('clear');
  };

  const onCallerEnd = (audio: Int16Array, startMs: number, endMs: number, unsent: boolean) => {
    const text = registry.recognize(audio).join(' ');
    record.heard.push({ text, startMs, endMs });
    notify('heard');
    if (answeredEarly) {
      answeredEarly = false;
      if (text) callerTurns[callerTurns.length - 1] = text;
      return;
    }
    if (!text && !mergeNext) return; // noise, not words: nothing to answer
    if (text) addCallerTurn(text);
    mergeNext = false;
    // the reply starts `latencyMs` after the caller's speech ended, not after the VAD's hangover
    const ms = latency();
    respondIn(ms - (ear.audioMs() - endMs), unsent ? null : endMs + ms);
  };

  /** With talkOverCaller: once it has heard enough to guess the whole utterance, it answers at once. */
  const maybeTalkOver = (current: HeardSpeech) => {
    const { talkOverCaller, talkOverAfterMs } = behaviour();
    if (!talkOverCaller || answeredEarly || speaking || ear.frames() % 5 !== 0) return;
    if (ear.audioMs() - current.startMs < talkOverAfterMs || silent()) return;
    const guess = registry.recognizeTimed(joinFrames(current.frames)).at(-1)?.fullText;
    if (!guess) return;
    answeredEarly = true;
    cancelReply();
    addCallerTurn(guess);
    void respond();
  };

  const ear = createCallerEar(vadHangoverMs, {
    onStart: onCallerStart,
    onSpeech: maybeTalkOver,
    onEnd: onCallerEnd,
  });

  const end = () => {
    ended = true;
    cancelReply();
    ear.close();
    speaking?.controller.abort();
  };

  const onMessage = (raw: string) => {
    const parsed = parsePlatformMessage(raw);
    if (!parsed.ok) return error(parsed.reason);
    const message = parsed.message;
    if (message.event === 'connected') {
      if (connected) error('a second connected message');
      connected = true;
      return;
    }
    if (!connected) error(`${message.event} before connected`);
    if (Number(message.sequenceNumber) !== nextSequence) {
      error(`sequenceNumber ${message.sequenceNumber} where ${nextSequence} was due`);
    }
    nextSequence = Number(message.sequenceNumber) + 1;
    if (message.event === 'start') {
      if (streamSid) return error('a second start message');
      streamSid = message.streamSid;
      record.start = message.start;
      startedAt = performance.now();
      notify('start');
      if (!silent()) respondIn(latency()); // the greeting
      return;
    }
    if (message.streamSid !== streamSid) return error(`${message.event} for stream ${message.streamSid}`);
    if (message.event === 'media') {
      const { chunk, timestamp, payload } = message.media;
      if (Number(chunk) !== ++chunks) error(`media chunk ${chunk} where ${chunks} was due`);
      const due = Math.floor(samplesIn / (RATE / 1000));
      if (Number(timestamp) !== due) error(`media timestamp ${timestamp} where ${due} was due`);
      const pcm = decodeMulaw(Buffer.from(payload, 'base64'));
      samplesIn += pcm.length;
      ear.hear(pcm);
      return replyIfAudioCaughtUp();
    }
    if (message.event === 'mark') {
      record.marks.push({ name: message.mark.name, atMs: now() });
      echoes.get(message.mark.name)?.();
      return notify('mark');
    }
    record.stopped = true;
    end();
    notify('stop');
  };

  ws.on('message', (data, isBinary) => {
    if (isBinary) return error('a binary frame');
    onMessage(data.toString());
  });
  ws.on('error', (e) => error(e.message));
  ws.on('close', (code, reason) => {
    end();
    record.closed = { code, reason: reason.toString(), byAgent: closedByAgent };
    notify('closed');
  });
}
