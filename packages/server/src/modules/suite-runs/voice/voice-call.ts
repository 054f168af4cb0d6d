import type { TranscriptTurn } from '@voice-eval/contract';
import { createStereoRecorder } from '../../../voice/audio/index.js';
import { agentLatencies, type Segment, voiceEvents, voiceMeasures } from '../../../voice/measures.js';
import { openMediaStream } from '../../../voice/media-stream/client.js';
import type { CallerModel, ConversationOutcome } from '../conversation.js';
import { type AgentUtterance, createAgentTrack } from './agent-track.js';
import { type Ambience, createCallerTrack } from './caller-track.js';
import { type SpeechResult, turnWaiter } from './turn-waiter.js';

/** The persona's voice (TTS) and ears (STT), and the ambient noise mixed under the caller track. */
export type VoiceParties = {
  stream: {
    url: string;
    headers: Record<string, string>;
    customParameters: Record<string, string>;
    lookup?: Parameters<typeof openMediaStream>[0]['lookup'];
  };
  caller: CallerModel;
  /** The persona's words as 8 kHz audio (text to speech). */
  speak: (text: string, signal: AbortSignal) => Promise<SpeechResult<Int16Array>>;
  /** The agent's utterance as text (speech to text). */
  hear: (pcm: Int16Array, signal: AbortSignal) => Promise<SpeechResult<string>>;
  noise: Ambience | null;
};

export type VoiceSetup = {
  conversationId: string;
  maxTurns: number;
  responseDelayMs: number;
  turnTimeoutMs: number;
  /** The persona barges in on an agent utterance that runs past `bargeInAfterMs`. */
  allowInterruptions: boolean;
  bargeInAfterMs: number;
};

/** A voice call's outcome: the text outcome, plus its recording and measures when it completed. */
export type VoiceOutcome = ConversationOutcome & {
  recording: Uint8Array | null;
  measures: ReturnType<typeof voiceMeasures> | null;
  /** The events the measures count, when it completed. */
  events: ReturnType<typeof voiceEvents> | null;
  /** How late the caller's 20 ms frames went out, in ms. */
  lateness: number[];
};

/** The silence between the persona's goodbye and its hang-up, in ms. */
export const HANG_UP_AFTER_MS = 800;

/** What the persona says when it barges in: short, as a caller cutting in does. */
export const BARGE_IN_TEXT = 'Sorry, can I stop you there?';

/**
 * Holds one simulated call over a Twilio Media Stream: the agent speaks first; each agent
 * utterance (found by VAD) is transcribed and answered by the persona, spoken after
 * `responseDelayMs`; with interruptions allowed the persona cuts into a long agent utterance. The
 * call ends when either side ends it or at `maxTurns`, with a stereo recording and the measures.
 */
export const runVoiceCall = async (
  parties: VoiceParties,
  setup: VoiceSetup,
  signal: AbortSignal,
): Promise<VoiceOutcome> => {
  const opened = await openMediaStream({
    url: parties.stream.url,
    headers: parties.stream.headers,
    customParameters: parties.stream.customParameters,
    callSid: setup.conversationId,
    connectTimeoutMs: setup.turnTimeoutMs,
    signal,
    ...(parties.stream.lookup ? { lookup: parties.stream.lookup } : {}),
  });
  const empty = {
    turns: [] as TranscriptTurn[],
    agentLatenciesMs: [],
    recording: null,
    measures: null,
    events: null,
    lateness: [],
  };
  if (!opened.ok) return { ok: false, error: { code: opened.code, message: opened.message }, ...empty };
  const session = opened.session;
  const recorder = createStereoRecorder(8000);
  const local = new AbortController();
  const stop = AbortSignal.any([signal, local.signal]);
  const waiter = turnWaiter();
  const clears: number[] = [];
  const callerSegments: Segment[] = [];
  const agent = createAgentTrack({
    recorder,
    onStart: (at) => waiter.agentStarted(at),
    onUtterance: (u) => waiter.agentUtterance(u),
    onMarkPlayed: (name) => session.sendMark(name),
  });
  const caller = createCallerTrack({
    send: (f) => session.sendAudio(f),
    recorder,
    noise: parties.noise,
    signal: stop,
    onTick: (nowMs) => {
      agent.advanceTo(nowMs);
      waiter.tick();
    },
  });
  // the agent's audio is placed on the caller's timeline (the frames sent so far), the one the
  // caller's speech and the agent's own ears are on: a tick the event loop delayed moves both alike
  session.onMedia((mulaw) => agent.push(mulaw, caller.nowMs()));
  session.onMark((name) => agent.mark(name));
  session.onClear(() => {
    clears.push(caller.nowMs());
    agent.clear();
  });
  session.onClose((info) => waiter.closed(info));
  // a stopped call's caller ticks no more: its waits must still look again
  stop.addEventListener('abort', () => waiter.tick(), { once: true });

  const turns: TranscriptTurn[] = [];
  const spoken: Array<{ speaker: 'agent' | 'caller'; text: string }> = [];
  // a caller cuts in the moment it decides to, not a speech synthesis later: its words are ready
  const bargeInVoice = setup.allowInterruptions ? parties.speak(BARGE_IN_TEXT, stop) : undefined;
  // never awaited when the persona does not cut in: a rejection then must not go unhandled
  bargeInVoice?.catch(() => undefined);
  const say = async (text: string, ready?: Promise<SpeechResult<Int16Array>>) => {
    const voice = await (ready ?? parties.speak(text, stop));
    if (!voice.ok) return voice;
    const played = await caller.say(voice.value);
    callerSegments.push(played);
    turns.push({
      speaker: 'user',
      text,
      start_ms: Math.round(played.startMs),
      end_ms: Math.round(played.endMs),
    });
    spoken.push({ speaker: 'caller', text });
    return { ok: true as const, value: played };
  };
  const heard = async (utterance: AgentUtterance) => {
    const text = await parties.hear(utterance.pcm, stop);
    if (!text.ok) return text;
    const round = { start_ms: Math.round(utterance.startMs), end_ms: Math.round(utterance.endMs) };
    turns.push({ speaker: 'agent', text: text.value, ...round });
    spoken.push({ speaker: 'agent', text: text.value });
    return text;
  };

  const finish = async (outcome: ConversationOutcome): Promise<VoiceOutcome> => {
    await caller.stop();
    if (!waiter.isClosed()) await session.stop().catch(() => undefined);
    local.abort();
    agent.flush();
    turns.sort((a, b) => (a.start_ms ?? 0) - (b.start_ms ?? 0));
    const timeline = {
      durationMs: Math.max(recorder.durationMs(), caller.nowMs()),
      agent: agent.segments(),
      caller: callerSegments,
      clears,
    };
    return {
      ...outcome,
      turns,
      agentLatenciesMs: agentLatencies(timeline),
      recording: recorder.toWav(),
      measures: outcome.ok ? voiceMeasures(timeline) : null,
      events: outcome.ok ? voiceEvents(timeline) : null,
      lateness: caller.lateness(),
    };
  };

  let sinceMs = 0;
  for (let callerTurns = 0; ; ) {
    const next = await waiter.nextUtterance({
      sinceMs,
      timeoutMs: setup.turnTimeoutMs,
      nowMs: caller.nowMs,
      bargeIn: setup.allowInterruptions && callerTurns < setup.maxTurns ? setup.bargeInAfterMs : null,
      signal: stop,
    });
    if (next.kind === 'barge_in') {
      const cut = await say(BARGE_IN_TEXT, bargeInVoice);
      if (!cut.ok) return finish({ ok: false, error: cut.error, turns, agentLatenciesMs: [] });
      callerTurns += 1;
      continue;
    }
    if (next.kind === 'closed') {
      if (next.normal) return finish({ ok: true, turns, endReason: 'agent_ended', agentLatenciesMs: [] });
      return finish({
        ok: false,
        error: { code: 'agent_unreachable', message: next.message },
        turns,
        agentLatenciesMs: [],
      });
    }
    if (next.kind === 'timeout') {
      return finish({
        ok: false,
        error: { code: 'agent_timeout', message: next.message },
        turns,
        agentLatenciesMs: [],
      });
    }
    if (next.kind === 'cancelled') {
      return finish({
        ok: false,
        error: { code: 'cancelled', message: 'The call was stopped.' },
        turns,
        agentLatenciesMs: [],
      });
    }
    const text = await heard(next.utterance);
    if (!text.ok) return finish({ ok: false, error: text.error, turns, agentLatenciesMs: [] });
    if (callerTurns >= setup.maxTurns)
      return finish({ ok: true, turns, endReason: 'max_turns_reached', agentLatenciesMs: [] });
    const reply = await parties.caller(spoken, setup.maxTurns - callerTurns, stop);
    if (!reply.ok) {
      return finish({
        ok: false,
        error: { code: 'persona_model_error', message: reply.message },
        turns,
        agentLatenciesMs: [],
      });
    }
    await waiter.until(next.utterance.endMs + setup.responseDelayMs, caller.nowMs, stop);
    const played = await say(reply.text);
    if (!played.ok) return finish({ ok: false, error: played.error, turns, agentLatenciesMs: [] });
    callerTurns += 1;
    sinceMs = played.value.endMs;
    if (reply.endCall) {
      // a caller hangs up a moment after its goodbye, not mid-word: the agent hears it out
      await waiter.until(caller.nowMs() + HANG_UP_AFTER_MS, caller.nowMs, stop);
      return finish({ ok: true, turns, endReason: 'caller_ended', agentLatenciesMs: [] });
    }
  }
};
