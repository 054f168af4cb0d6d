import { GAP_LABELS } from '@voice-eval/contract';
import { stem } from './stem.js';
import { words } from './text.js';

/** A root-cause family (`gap_label`). */
export type GapLabel = (typeof GAP_LABELS)[number];

/**
 * The keyword heuristic that picks a cluster's `gap_label` when no model is configured. Each
 * family lists cue words (matched after Porter stemming, so "misheard" and "mishearing" count
 * alike); the family with most cue occurrences across the cluster's texts wins, ties going to the
 * family listed first; no cue at all gives `OTHER`.
 *
 * | gap_label | cues |
 * | --- | --- |
 * | LOGIC_GAP | confirm, forgot, skip, step, order, flow, loop, sequence, logic, reasoning, follow, repeat, missed, escalate |
 * | KNOWLEDGE_GAP | incorrect, inaccurate, outdated, price, pricing, fact, knowledge, hours, unaware, misinformation, information |
 * | PROMPT_GAP | instruction, prompt, tone, rude, polite, empathy, greeting, introduce, persona, verbose, jargon, script |
 * | TOOL_GAP | tool, api, system, lookup, integration, database, crm, calendar, error, crash, timeout, outage, transfer, function |
 * | ASR_GAP | hear, heard, misheard, transcription, recognition, speech, spelling, pronunciation, accent, noise, audio, garbled, unclear |
 * | POLICY_GAP | policy, compliance, consent, disclosure, verify, verification, identity, privacy, authorise, legal, regulation, prohibited, pii |
 * | LATENCY_GAP | latency, slow, delay, pause, silence, wait, lag, interrupt, talked |
 */
export const GAP_CUES: Readonly<Record<Exclude<GapLabel, 'OTHER'>, readonly string[]>> = {
  LOGIC_GAP: [
    'confirm',
    'forgot',
    'skip',
    'step',
    'order',
    'flow',
    'loop',
    'sequence',
    'logic',
    'reasoning',
    'follow',
    'repeat',
    'missed',
    'escalate',
  ],
  KNOWLEDGE_GAP: [
    'incorrect',
    'inaccurate',
    'outdated',
    'price',
    'pricing',
    'fact',
    'knowledge',
    'hours',
    'unaware',
    'misinformation',
    'information',
  ],
  PROMPT_GAP: [
    'instruction',
    'prompt',
    'tone',
    'rude',
    'polite',
    'empathy',
    'greeting',
    'introduce',
    'persona',
    'verbose',
    'jargon',
    'script',
  ],
  TOOL_GAP: [
    'tool',
    'api',
    'system',
    'lookup',
    'integration',
    'database',
    'crm',
    'calendar',
    'error',
    'crash',
    'timeout',
    'outage',
    'transfer',
    'function',
  ],
  ASR_GAP: [
    'hear',
    'heard',
    'misheard',
    'mishear',
    'transcription',
    'transcribed',
    'recognition',
    'speech',
    'spelling',
    'spelled',
    'pronunciation',
    'accent',
    'noise',
    'audio',
    'garbled',
    'unclear',
  ],
  POLICY_GAP: [
    'policy',
    'compliance',
    'consent',
    'disclosure',
    'verify',
    'verification',
    'identity',
    'privacy',
    'authorise',
    'authorize',
    'legal',
    'regulation',
    'prohibited',
    'pii',
  ],
  LATENCY_GAP: [
    'latency',
    'slow',
    'delay',
    'pause',
    'silence',
    'wait',
    'lag',
    'interrupt',
    'interrupted',
    'talked',
  ],
};

const CUE_FAMILY: ReadonlyMap<string, GapLabel> = new Map(
  (Object.entries(GAP_CUES) as Array<[GapLabel, readonly string[]]>).flatMap(([family, cues]) =>
    cues.map((cue) => [stem(cue), family] as const),
  ),
);

/** The gap label the keyword heuristic ({@link GAP_CUES}) gives a cluster's texts. */
export const gapLabelOf = (texts: readonly string[]): GapLabel => {
  const scores = new Map<GapLabel, number>();
  for (const text of texts) {
    for (const word of words(text)) {
      const family = CUE_FAMILY.get(stem(word));
      if (family) scores.set(family, (scores.get(family) ?? 0) + 1);
    }
  }
  let best: GapLabel = 'OTHER';
  let bestScore = 0;
  for (const family of GAP_LABELS) {
    const score = scores.get(family) ?? 0;
    if (score > bestScore) [best, bestScore] = [family, score];
  }
  return best;
};
