import { createReadStream } from 'node:fs';
import { VoiceEval } from '@voice-eval/sdk';
import { evaluateCalls } from './evaluate-calls.js';

/**
 * `VOICE_EVAL_BASE_URL=... VOICE_EVAL_API_KEY=... pnpm start calls.csv`: evaluates a CSV of calls
 * and prints the flagged ones.
 */
const path = process.argv[2];
if (!path) {
  console.error('Usage: pnpm start <calls.csv>');
  process.exit(2);
}
const client = new VoiceEval();
const summary = await evaluateCalls(client, { csv: createReadStream(path), dataset: path });
console.log(
  `${summary.calls} calls, ${summary.scored} scored, ${summary.flagged.length} flagged, ${summary.unscored} without a transcript`,
);
for (const call of summary.flagged) {
  console.log(
    `- ${call.conversationId}: ${call.failures.map((f) => `${f.metric} = ${String(f.value)}`).join('; ')}`,
  );
}
