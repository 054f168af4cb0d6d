import { ApiError, VoiceEval } from '@voice-eval/sdk';
import { callEnded, deliver } from './retell.js';
import { setupProductionMonitoring } from './setup.js';

/**
 * `pnpm start [--send-test-call]` with
 * `VOICE_EVAL_BASE_URL`, `VOICE_EVAL_API_KEY` (an organization API key: integrations need ADMIN),
 * `RETELL_API_KEY` (the key with the webhook badge), `RETELL_AGENT_ID` and `ALERT_WEBHOOK_URL`:
 * sets up monitoring of the Retell agent and prints what to paste into Retell. With
 * `--send-test-call` it then plays Retell once: a signed `call_ended` to the ingest URL.
 */
const required = [
  'VOICE_EVAL_BASE_URL',
  'VOICE_EVAL_API_KEY',
  'RETELL_API_KEY',
  'RETELL_AGENT_ID',
  'ALERT_WEBHOOK_URL',
];
const missing = required.filter((name) => !process.env[name]);
if (missing.length > 0) {
  console.error(`Set ${missing.join(', ')} (see README.md).`);
  process.exit(2);
}
const env = (name: string) => process.env[name]!;

const client = new VoiceEval();
const setup = await setupProductionMonitoring(client, {
  retell: { apiKey: env('RETELL_API_KEY'), agentId: env('RETELL_AGENT_ID') },
  alertWebhookUrl: env('ALERT_WEBHOOK_URL'),
  sampleRate: process.env.SAMPLE_RATE ? Number(process.env.SAMPLE_RATE) : undefined,
}).catch((error: unknown) => {
  if (error instanceof ApiError && error.code === 'ai_provider_not_configured') {
    // a monitor needs a judge: the organization's AI provider, or the server's VOICE_EVAL_LLM_*
    console.error(`No judge model: ${error.detail}. Add an AI provider to the organization, then run again.`);
    process.exit(1);
  }
  throw error;
});

console.log(`Agent:       ${setup.agent.name} (${setup.agent.id})`);
console.log(`Integration: ${setup.integration.name} (${setup.integration.id})`);
console.log(
  `Monitor:     ${setup.monitor.name} (${setup.monitor.id}), sample rate ${setup.monitor.sample_rate}, rules ${setup.monitor.rules.map((r) => r.type).join(', ')}`,
);
console.log(`Alerts:      monitor.alert.fired -> ${env('ALERT_WEBHOOK_URL')}`);
console.log(
  `             signing secret (store it; shown on create and rotate only): ${setup.webhookSecret}`,
);
console.log('');
console.log("Paste into Retell, as the agent's (or the account's) Webhook URL:");
console.log(`  ${setup.ingestUrl}`);

if (process.argv.includes('--send-test-call')) {
  const callId = `call_test_${Date.now()}`;
  const answer = await deliver(
    setup.ingestUrl,
    callEnded({
      callId,
      agentId: env('RETELL_AGENT_ID'),
      lines: [
        { role: 'agent', text: 'Thanks for calling, how can I help?' },
        { role: 'user', text: 'Just testing the webhook.' },
      ],
    }),
    env('RETELL_API_KEY'),
  );
  console.log('');
  console.log(`Test call ${callId}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
  if (answer.status !== 200) process.exitCode = 1;
}
