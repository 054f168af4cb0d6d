import { Link } from '@tanstack/react-router';
import type { EvaluationResult, RecordingPeaks, TranscriptTurn, VoiceEvent } from '@voice-eval/contract';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Loading, ProblemView } from '../components/problem.tsx';
import { HelpDialog, type Shortcut } from '../components/shortcuts-dialog.tsx';
import { type ParentMetric, Verdicts } from '../components/verdicts.tsx';
import { EventList } from '../components/voice-events.tsx';
import type { Lane, Player } from '../components/waveform.tsx';
import { clock } from '../format.ts';
import { activeTurnAt } from '../transcript.ts';

const Waveform = lazy(() => import('../components/waveform.tsx'));
const RATES = [0.75, 1, 1.25, 1.5, 2];

export interface CallViewProps {
  title: string;
  /** Said above the title (one pane of two compared calls). */
  heading?: string | undefined;
  /** Whether the page's keys drive this call. */
  keyboard: boolean;
  turns: TranscriptTurn[];
  recordingUrl: string | undefined;
  /** The recording's peaks from the server, when it could summarise it. */
  peaks: RecordingPeaks | undefined;
  recordingError: unknown;
  hasRecording: boolean;
  events: VoiceEvent[];
  results: EvaluationResult[];
  parentOf: Map<string, ParentMetric>;
  verdictsState: 'loading' | 'none' | 'ready';
  runId: string | undefined;
  startAtSeconds: number | undefined;
  selectedMetric: string | undefined;
  /** Keys the page adds (the labelling page's), listed in the help after the call's. */
  shortcuts?: { title: string; shortcuts: readonly Shortcut[] } | undefined;
}

/** A quote of a flagged verdict, in the order `[` and `]` step through them. */
type Citation = { metricId: string; quote: string; turnIndex: number };

export const CallView = (props: CallViewProps) => {
  const { turns, results } = props;
  const player = useRef<Player | null>(null);
  const [nowMs, setNowMs] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [rate, setRate] = useState(1);
  const [lanes, setLanes] = useState(0);
  const [solo, setSolo] = useState<Lane | 'both'>('both');
  const [focusTurn, setFocusTurn] = useState<number | undefined>();
  const [help, setHelp] = useState(false);
  const [audioError, setAudioError] = useState<string | undefined>();
  const [copied, setCopied] = useState(false);
  const transcript = useRef<HTMLOListElement>(null);

  const timed = turns.some((t) => t.start_ms !== undefined);
  const activeTurn = useMemo(() => {
    if (!timed) return focusTurn;
    return activeTurnAt(turns, nowMs);
  }, [turns, timed, nowMs, focusTurn]);

  const flaggedCitations = useMemo<Citation[]>(
    () =>
      results
        .filter((r) => r.flagged)
        .flatMap((r) =>
          r.evidence.map((e) => ({ metricId: r.metric_id, quote: e.quote, turnIndex: e.turn_index })),
        )
        .sort((a, b) => a.turnIndex - b.turnIndex),
    [results],
  );
  const [citation, setCitation] = useState(-1);

  /** Goes to a turn: the playhead to its start (playing) when the call is timed, else the text. */
  const goToTurn = useCallback(
    (index: number, play = true) => {
      const turn = turns[index];
      if (!turn) return;
      setFocusTurn(index);
      if (turn.start_ms !== undefined && player.current) player.current.seek(turn.start_ms, play);
      transcript.current?.children[index]?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
    },
    [turns],
  );

  // the turn being spoken stays in view while the call plays
  useEffect(() => {
    if (playing && activeTurn !== undefined) {
      transcript.current?.children[activeTurn]?.scrollIntoView({ block: 'nearest' });
    }
  }, [playing, activeTurn]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement;
      if (target.closest('input, select, textarea, [contenteditable]') || event.metaKey || event.ctrlKey)
        return;
      const step = (delta: number) => {
        const next = Math.min(Math.max((activeTurn ?? -1) + delta, 0), turns.length - 1);
        goToTurn(next, false);
      };
      const cite = (delta: number) => {
        if (flaggedCitations.length === 0) return;
        const next = (citation + delta + flaggedCitations.length) % flaggedCitations.length;
        setCitation(next);
        goToTurn(flaggedCitations[next]!.turnIndex);
      };
      const keys: Record<string, () => void> = {
        ' ': () => player.current?.toggle(),
        ArrowLeft: () => player.current?.seek(Math.max(0, nowMs - 5000)),
        ArrowRight: () => player.current?.seek(nowMs + 5000),
        j: () => step(1),
        k: () => step(-1),
        ']': () => cite(1),
        '[': () => cite(-1),
        '?': () => setHelp((shown) => !shown),
        Escape: () => setHelp(false),
      };
      const action = keys[event.key];
      if (!action || (event.key === ' ' && target.closest('button, a'))) return;
      event.preventDefault();
      action();
    };
    if (!props.keyboard) return;
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [props.keyboard, activeTurn, turns.length, goToTurn, flaggedCitations, citation, nowMs]);

  const onReady = useCallback(
    (ready: Player) => {
      player.current = ready;
      setLanes(ready.lanes);
      if (props.startAtSeconds !== undefined) ready.seek(props.startAtSeconds * 1000);
    },
    [props.startAtSeconds],
  );

  const copyLink = async () => {
    const url = new URL(window.location.href);
    url.searchParams.set('t', (nowMs / 1000).toFixed(1));
    await navigator.clipboard?.writeText(url.href).catch(() => undefined);
    window.history.replaceState(window.history.state, '', url.href);
    setCopied(true);
    setTimeout(() => setCopied(false), 1500);
  };

  return (
    <section className="call">
      <div className="page-head">
        {props.heading ? (
          <h2>
            {props.heading}: {props.title}
          </h2>
        ) : (
          <h1>{props.title}</h1>
        )}
        {props.runId && !props.heading && (
          <Link to="/runs/$runId" params={{ runId: props.runId }}>
            Back to the run
          </Link>
        )}
        {props.keyboard && (
          <button type="button" className="link" onClick={() => setHelp(true)} aria-haspopup="dialog">
            Keyboard shortcuts (?)
          </button>
        )}
      </div>

      {props.hasRecording ? (
        <div className="player">
          <div className="controls">
            <button type="button" onClick={() => player.current?.toggle()} aria-pressed={playing}>
              {playing ? 'Pause' : 'Play'}
            </button>
            <output aria-label="Position" data-testid="position" data-ms={nowMs}>
              {clock(nowMs)}
            </output>
            <label>
              Speed{' '}
              <select
                value={rate}
                onChange={(e) => {
                  const next = Number(e.target.value);
                  setRate(next);
                  player.current?.setRate(next);
                }}
              >
                {RATES.map((r) => (
                  <option key={r} value={r}>
                    {r}×
                  </option>
                ))}
              </select>
            </label>
            {lanes === 2 && (
              <label>
                Hear{' '}
                <select
                  value={solo}
                  onChange={(e) => {
                    const next = e.target.value as Lane | 'both';
                    setSolo(next);
                    player.current?.solo(next === 'both' ? null : next);
                  }}
                >
                  <option value="both">both lanes</option>
                  <option value="agent">the agent only</option>
                  <option value="caller">the caller only</option>
                </select>
              </label>
            )}
            <button type="button" onClick={() => void copyLink()}>
              {copied ? 'Link copied' : 'Copy link at this moment'}
            </button>
            {props.recordingUrl && (
              <a href={props.recordingUrl} download>
                Download
              </a>
            )}
          </div>
          {audioError || props.recordingError ? (
            <ProblemView error={props.recordingError ?? new Error(audioError)} what="recording" />
          ) : props.recordingUrl ? (
            <Suspense fallback={<Loading what="waveform" />}>
              <Waveform
                url={props.recordingUrl}
                peaks={props.peaks}
                turns={turns}
                events={props.events}
                onReady={onReady}
                onTime={setNowMs}
                onPlaying={setPlaying}
                onError={setAudioError}
              />
            </Suspense>
          ) : (
            <Loading what="recording" />
          )}
          {props.events.length > 0 && (
            <EventList events={props.events} onSeek={(ms) => player.current?.seek(ms, true)} />
          )}
        </div>
      ) : (
        <p className="muted">This call has no recording: its transcript and verdicts are below.</p>
      )}

      <div className="columns">
        <div>
          <h2>Transcript</h2>
          {turns.length === 0 ? (
            <p className="empty">No transcript yet.</p>
          ) : (
            <ol className="transcript" ref={transcript}>
              {turns.map((turn, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: a transcript's turns are positional
                  key={index}
                  className={`turn turn-${turn.speaker}${index === activeTurn ? ' active' : ''}`}
                  aria-current={index === activeTurn ? 'true' : undefined}
                >
                  <button type="button" onClick={() => goToTurn(index)} data-turn={index}>
                    <span className="speaker">{turn.speaker === 'agent' ? 'Agent' : 'Caller'}</span>
                    {turn.start_ms !== undefined && (
                      <span className="muted time">{clock(turn.start_ms)}</span>
                    )}
                    <span className="text">{turn.text}</span>
                  </button>
                </li>
              ))}
            </ol>
          )}
        </div>
        <div>
          <h2>Verdicts</h2>
          {props.verdictsState === 'loading' ? (
            <Loading what="verdicts" />
          ) : props.verdictsState === 'none' ? (
            <p className="empty">This call has not been scored yet.</p>
          ) : (
            <Verdicts
              results={results}
              parentOf={props.parentOf}
              selected={props.selectedMetric}
              onQuote={goToTurn}
            />
          )}
        </div>
      </div>
      {help && <HelpDialog onClose={() => setHelp(false)} extra={props.shortcuts} />}
    </section>
  );
};
