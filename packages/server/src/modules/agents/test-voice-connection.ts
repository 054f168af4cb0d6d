import type { AgentErrorCode } from '@voice-eval/contract';
import type { Deps } from '../../deps.js';
import { generateSid, openMediaStream } from '../../voice/media-stream/client.js';
import type { MediaStreamSession } from '../../voice/media-stream/session.js';
import { openVoiceConnection, refusedVoiceAddress, type VoiceAgent } from './channel-voice.js';
import type { AgentRow } from './repo.js';

/** The outcome of a voice greeting test: the latency to the agent's first audio, or a typed error. */
export type VoiceGreeting =
  | { ok: true; latencyMs: number }
  | { ok: false; error: { code: AgentErrorCode; message: string }; latencyMs: number };

type FirstAudio = { ok: true; atMs: number } | { ok: false; code: AgentErrorCode; message: string };

/** Resolves at the agent's first `media`, its close, or `timeoutMs` after `start`, whichever is first. */
const firstAudio = (session: MediaStreamSession, timeoutMs: number) =>
  new Promise<FirstAudio>((resolve) => {
    const unsubscribe: Array<() => void> = [];
    const done = (result: FirstAudio) => {
      clearTimeout(timer);
      for (const off of unsubscribe) off();
      resolve(result);
    };
    const timer = setTimeout(
      () =>
        done({ ok: false, code: 'agent_timeout', message: `The agent sent no audio within ${timeoutMs} ms` }),
      Math.max(0, timeoutMs - session.now()),
    );
    unsubscribe.push(
      session.onMedia((_mulaw, atMs) => done({ ok: true, atMs })),
      session.onClose(({ code, reason }) =>
        done({
          ok: false,
          code: 'agent_unreachable',
          message: `The agent closed the stream before speaking (${code}${reason ? ` ${reason}` : ''})`,
        }),
      ),
    );
  });

/**
 * Tests a voice agent as a call would reach it: opens the Twilio Media Stream (`connected`,
 * `start`) and waits for the agent's first audio within the per-turn timeout of simulated calls;
 * the latency runs from `start` sent to the first `media` received. There is no speech to text
 * in a test, so no greeting text. A refused address, a failed connection or upgrade, or a stream
 * the agent closes before speaking is `agent_unreachable`; silence or a slow upgrade
 * `agent_timeout`. The stream is stopped (`stop`, then close) whatever the outcome.
 */
export const testVoiceGreeting = async (
  deps: Pick<Deps, 'secrets' | 'config' | 'logger'>,
  agent: VoiceAgent<Pick<AgentRow, 'id' | 'organization_id' | 'connection'>>,
): Promise<VoiceGreeting> => {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const refused = refusedVoiceAddress(deps, agent.connection);
  const connection = refused ? null : openVoiceConnection(deps, agent);
  if (!connection) {
    const message = refused ?? 'The agent has no voice connection';
    return { ok: false, error: { code: 'agent_unreachable', message }, latencyMs: 0 };
  }
  const timeoutMs = deps.config.simulationTurnTimeoutMs;
  const opened = await openMediaStream({
    url: connection.url,
    headers: connection.headers,
    customParameters: connection.customParameters,
    callSid: generateSid('CA'),
    connectTimeoutMs: timeoutMs,
    lookup: connection.lookup,
  });
  if (!opened.ok) {
    const code = opened.code === 'agent_timeout' ? 'agent_timeout' : 'agent_unreachable';
    return { ok: false, error: { code, message: opened.message }, latencyMs: elapsed() };
  }
  const heard = await firstAudio(opened.session, timeoutMs);
  const waitedMs = Math.round(opened.session.now());
  await opened.session.stop();
  if (!heard.ok)
    return { ok: false, error: { code: heard.code, message: heard.message }, latencyMs: waitedMs };
  return { ok: true, latencyMs: Math.round(heard.atMs) };
};
