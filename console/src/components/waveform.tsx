import type { RecordingPeaks, TranscriptTurn, VoiceEvent } from '@voice-eval/contract';
import { useEffect, useRef } from 'react';
import WaveSurfer from 'wavesurfer.js';
import RegionsPlugin from 'wavesurfer.js/dist/plugins/regions.esm.js';

/** What the call page can do with the loaded audio. */
export interface Player {
  toggle(): void;
  /** Moves the playhead to `ms` (and plays from there when `play`). */
  seek(ms: number, play?: boolean): void;
  setRate(rate: number): void;
  /** Plays one lane alone, in both ears (`null`: both lanes as recorded). */
  solo(lane: Lane | null): void;
  durationMs: number;
  /** Lanes drawn: 2 for a stereo recording, 1 for a mono one. */
  lanes: number;
}

export type Lane = 'agent' | 'caller';

/**
 * Routes the media element through Web Audio so each channel can be sent to both ears or muted.
 * `gains[from * 2 + to]` carries channel `from` (0 agent, 1 caller) to output `to` (0 left, 1 right).
 * Made on the first solo, a user's gesture: an AudioContext made before one would start suspended
 * and silence the call.
 */
const mixerFor = (media: HTMLMediaElement) => {
  const context = new AudioContext();
  const splitter = context.createChannelSplitter(2);
  const merger = context.createChannelMerger(2);
  context.createMediaElementSource(media).connect(splitter);
  const gains = [0, 1].flatMap((from) =>
    [0, 1].map((to) => {
      const gain = context.createGain();
      splitter.connect(gain, from);
      gain.connect(merger, 0, to);
      return gain;
    }),
  );
  merger.connect(context.destination);
  return { context, gains };
};

const SOLO: Record<Lane | 'both', number[]> = {
  both: [1, 0, 0, 1],
  agent: [1, 1, 0, 0],
  caller: [0, 0, 1, 1],
};

export interface WaveformProps {
  url: string;
  /** Peaks from the server: drawn at once while the audio streams (else the file is decoded here). */
  peaks?: RecordingPeaks | undefined;
  turns: TranscriptTurn[];
  events: VoiceEvent[];
  onReady(player: Player): void;
  onTime(ms: number): void;
  onPlaying(playing: boolean): void;
  onError(message: string): void;
}

const LANES = [
  { name: 'Agent', wave: '#3b82f6', progress: '#1d4ed8' },
  { name: 'Caller', wave: '#10b981', progress: '#047857' },
];
const TURN_COLOUR = { agent: 'rgba(59, 130, 246, 0.10)', user: 'rgba(16, 185, 129, 0.10)' } as const;

const eventRegion = (event: VoiceEvent) => {
  switch (event.kind) {
    case 'latency_gap':
      return {
        start: event.at_ms,
        end: event.at_ms + event.duration_ms,
        colour: 'rgba(245, 158, 11, 0.35)',
        label: 'gap',
      };
    case 'silence':
      return {
        start: event.at_ms,
        end: event.at_ms + event.duration_ms,
        colour: 'rgba(107, 114, 128, 0.25)',
        label: 'silence',
      };
    case 'interruption':
      return {
        start: event.at_ms,
        end: event.at_ms + event.overlap_ms,
        colour: 'rgba(220, 38, 38, 0.40)',
        label:
          event.by === 'caller'
            ? event.yielded === false
              ? 'barge-in, not yielded'
              : 'barge-in'
            : 'agent interrupts',
      };
  }
};

/**
 * The recording as two lanes, agent (left channel) over caller (right channel), with the turns as
 * regions and the measured voice events marked on it. A mono recording draws one lane.
 */
export default function Waveform({ url, peaks, turns, events, ...handlers }: WaveformProps) {
  const container = useRef<HTMLDivElement>(null);
  const latest = useRef(handlers);
  latest.current = handlers;

  useEffect(() => {
    const element = container.current!;
    const regions = RegionsPlugin.create();
    const surfer = WaveSurfer.create({
      container: element,
      url,
      ...(peaks && { peaks: peaks.channels, duration: peaks.duration_ms / 1000 }),
      height: 64,
      normalize: true,
      cursorColor: '#dc2626',
      cursorWidth: 2,
      dragToSeek: true,
      splitChannels: LANES.map((lane) => ({ waveColor: lane.wave, progressColor: lane.progress })),
      plugins: [regions],
    });
    surfer.on('decode', (seconds) => {
      const lanes = surfer.getDecodedData()?.numberOfChannels ?? 0;
      element.dataset.lanes = String(lanes);
      element.dataset.drawnFrom = peaks ? 'server-peaks' : 'decoded-audio';
      for (const turn of turns) {
        if (turn.start_ms === undefined || turn.end_ms === undefined) continue;
        regions.addRegion({
          start: turn.start_ms / 1000,
          end: Math.min(turn.end_ms / 1000, seconds),
          color: TURN_COLOUR[turn.speaker],
          drag: false,
          resize: false,
        });
      }
      for (const event of events) {
        const { start, end, colour, label } = eventRegion(event);
        regions.addRegion({
          start: start / 1000,
          end: Math.max(end, start + 60) / 1000,
          color: colour,
          content: label,
          drag: false,
          resize: false,
        });
      }
    });
    let mixer: ReturnType<typeof mixerFor> | undefined;
    surfer.on('ready', (seconds) => {
      element.dataset.ready = 'true';
      latest.current.onReady({
        lanes: surfer.getDecodedData()?.numberOfChannels ?? 1,
        solo: (lane) => {
          const media = surfer.getMediaElement();
          if (!media) return;
          mixer ??= mixerFor(media);
          const { gains } = mixer;
          SOLO[lane ?? 'both'].forEach((value, i) => {
            gains[i]!.gain.value = value;
          });
          // what the graph now does, for a test to read back
          element.dataset.gains = gains.map((g) => g.gain.value).join(',');
        },
        toggle: () => void surfer.playPause(),
        seek: (ms, play) => {
          surfer.setTime(ms / 1000);
          if (play) void surfer.play();
        },
        setRate: (rate) => surfer.setPlaybackRate(rate),
        durationMs: Math.round(seconds * 1000),
      });
    });
    surfer.on('timeupdate', (seconds) => latest.current.onTime(Math.round(seconds * 1000)));
    surfer.on('play', () => latest.current.onPlaying(true));
    surfer.on('pause', () => latest.current.onPlaying(false));
    surfer.on('error', (error) => latest.current.onError(error.message));
    return () => {
      surfer.destroy();
      void mixer?.context.close();
    };
  }, [url, peaks, turns, events]);

  return (
    <div className="waveform">
      <div className="lanes" aria-hidden="true">
        {LANES.map((lane) => (
          <span key={lane.name} style={{ color: lane.progress }}>
            {lane.name}
          </span>
        ))}
      </div>
      <div
        ref={container}
        className="wave"
        role="img"
        aria-label="Recording: agent lane above, caller lane below"
      />
    </div>
  );
}
