import {
  CLINIC_PRICES,
  type ClinicService,
  type JudgeDoubleOptions,
  type JudgedMetric,
} from '../../testing/index.js';

/**
 * What the demo's judge checks in a clinic call: the metrics the demo seeds whose scores come from
 * the transcript (the judge double reads them with these rules instead of a model), so the seeded
 * failure modes of the clinic agent show up as flagged results with a reason and a quote.
 */

/** A judged metric of the demo: its name and description, and how a transcript is scored on it. */
export type ClinicCheck = {
  name: string;
  description: string;
  /** The verdict on one transcript: passed, or flagged with why and the turn that shows it. */
  judge(turns: readonly Turn[]): { passed: true; why: string } | { passed: false; why: string; turn: Turn };
};

/** One numbered turn of the judge prompt's transcript (`3. agent: ...` is turn 3). */
export type Turn = { number: number; speaker: string; text: string };

const agentTurns = (turns: readonly Turn[]) => turns.filter((t) => t.speaker === 'agent');

/** The demo's transcript checks, in the order the suites list them. */
export const CLINIC_CHECKS: readonly ClinicCheck[] = [
  {
    name: 'Reads the date back before booking',
    description: 'The agent repeats the date to the caller and waits for a yes before it books.',
    judge: (turns) => {
      const agent = agentTurns(turns);
      const booked = agent.find((t) => /you're booked/i.test(t.text));
      if (!booked)
        return { passed: true, why: 'No appointment was booked, so there was nothing to read back.' };
      const readBack = agent.some((t) => t.number < booked.number && /correct\?/i.test(t.text));
      return readBack
        ? { passed: true, why: 'The agent read the date back and the caller confirmed it before booking.' }
        : {
            passed: false,
            why: 'The agent booked the appointment without reading the date back.',
            turn: booked,
          };
    },
  },
  {
    name: 'Quotes the right price',
    description: 'Every price the agent quotes matches the clinic price list.',
    judge: (turns) => {
      for (const turn of agentTurns(turns)) {
        for (const quote of turn.text.matchAll(/A ([a-z ]+) costs \$(\d+)/gi)) {
          const service = quote[1]!.toLowerCase() as ClinicService;
          const listed = CLINIC_PRICES[service];
          if (listed !== undefined && Number(quote[2]) !== listed) {
            return {
              passed: false,
              why: `The agent quoted $${quote[2]} for a ${service}; the price list says $${listed}.`,
              turn,
            };
          }
        }
      }
      return { passed: true, why: 'Every price quoted matches the price list (or none was asked).' };
    },
  },
];

/** The numbered turns of a transcript as the judge prompt writes it; a wrapped line joins its turn. */
export const parseTurns = (transcript: string): Turn[] => {
  const turns: Turn[] = [];
  for (const line of transcript.split('\n')) {
    const turn = /^(\d+)\. ([a-z_]+): (.*)$/i.exec(line);
    if (turn) turns.push({ number: Number(turn[1]), speaker: turn[2]!.toLowerCase(), text: turn[3]! });
    else if (turns.length > 0) turns[turns.length - 1]!.text += `\n${line}`;
  }
  return turns;
};

/**
 * Options of the judge double that score the demo's checks by `checkOf(metric id)` (filled in once
 * the metrics exist). Metrics it does not know pass. A prompt without a transcript is not a judge
 * prompt but the clusters' naming: it gets an empty analysis, so the clusters keep the names the
 * server gives them from the data.
 */
export const clinicJudgeOptions = (
  checkOf: (metricId: string) => ClinicCheck | undefined,
): JudgeDoubleOptions => {
  const verdict = (metric: JudgedMetric, transcript: string) =>
    checkOf(metric.key)?.judge(parseTurns(transcript)) ?? {
      passed: true as const,
      why: 'Not checked by the demo.',
    };
  return {
    answer: (metric, transcript) => verdict(metric, transcript).passed,
    rationale: (metric, transcript) => verdict(metric, transcript).why,
    evidence: (metric, transcript) => {
      const result = verdict(metric, transcript);
      return result.passed ? [] : [{ quote: result.turn.text, turn: result.turn.number }];
    },
    override: (call) =>
      call.transcript === ''
        ? {
            status: 200,
            body: {
              id: 'chatcmpl-demo-clusters',
              object: 'chat.completion',
              model: 'demo-judge',
              choices: [
                {
                  index: 0,
                  finish_reason: 'stop',
                  message: { role: 'assistant', content: JSON.stringify({ overview: '', clusters: [] }) },
                },
              ],
              usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
            },
          }
        : undefined,
  };
};
