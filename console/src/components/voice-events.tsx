import type { VoiceEvent } from '@voice-eval/contract';
import { clock, milliseconds } from '../format.ts';

/** The measured voice events of a call, each a link to its moment. */
export const EventList = ({ events, onSeek }: { events: VoiceEvent[]; onSeek: (ms: number) => void }) => (
  <details className="events">
    <summary>{events.length} voice events</summary>
    <ul>
      {events.map((event, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: events are in time order and never reorder
        <li key={i}>
          <button type="button" className="link" onClick={() => onSeek(event.at_ms)}>
            {clock(event.at_ms)}
          </button>{' '}
          {event.kind === 'interruption'
            ? `${event.by === 'caller' ? 'Caller barges in' : 'Agent interrupts'} (${milliseconds(event.overlap_ms)} overlap${
                event.yielded === null ? '' : event.yielded ? ', agent yielded' : ', agent kept talking'
              })`
            : `${event.kind === 'latency_gap' ? 'Agent latency' : 'Silence'} ${milliseconds(event.duration_ms)}`}
        </li>
      ))}
    </ul>
  </details>
);
