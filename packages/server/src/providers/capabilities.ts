/**
 * The capability registry: which provider/model pairs accept audio in chat (`input_audio`
 * parts), which transcribe speech (`/audio/transcriptions`) and which speak (`/audio/speech`).
 *
 * Built-in rules cover well-known models; two layers of overrides sit on top, each written as
 * a list of entries:
 * - `audio:<model>`: the model accepts audio in chat;
 * - `stt:<model>`: the model does speech to text;
 * - `tts:<model>`: the model does text to speech;
 * - `-audio:<model>` / `-stt:<model>` / `-tts:<model>`: it does not (overrides a built-in rule);
 * - anything else (a plain model name) is not a capability entry and is ignored here.
 * `<model>` is matched case-insensitively against the full model id and against its last path
 * segment (`openrouter/google/gemini-2.5-flash` -> `gemini-2.5-flash`); a trailing `*` makes it
 * a prefix (`audio:qwen-omni-*`).
 *
 * Precedence, highest first: the AIProvider's `enabled_models` entries, then the server config
 * entries, then the built-in rules. Within one layer a denial beats a grant.
 */

/** A capability the registry tracks. */
export type Capability = 'audio' | 'stt' | 'tts';

/** Answers capability questions for provider/model pairs. */
export interface CapabilityRegistry {
  /** Whether chat with this model accepts `input_audio` parts. */
  acceptsAudio(provider: string, model: string): boolean;
  /** Whether this model transcribes speech. */
  doesSpeechToText(provider: string, model: string): boolean;
  /** Whether this model synthesises speech. */
  doesTextToSpeech(provider: string, model: string): boolean;
  /** A registry with `entries` layered above this one's overrides. */
  withOverrides(entries: readonly string[] | null | undefined): CapabilityRegistry;
}

interface BuiltInRule {
  capability: Capability;
  /** Provider values the rule is limited to; every provider when absent. */
  providers?: readonly string[];
  pattern: RegExp;
}

/** Rules for models whose capabilities are documented by their vendors. */
const BUILT_IN_RULES: readonly BuiltInRule[] = [
  { capability: 'audio', pattern: /^gpt-4o(-mini)?-audio-preview/ },
  { capability: 'audio', pattern: /^gpt-audio/ },
  { capability: 'audio', pattern: /^gemini-/ },
  { capability: 'audio', pattern: /^voxtral-/ },
  { capability: 'audio', pattern: /^qwen2(\.5)?-(audio|omni)/ },
  { capability: 'audio', pattern: /^ultravox/ },
  { capability: 'stt', pattern: /^whisper-1$/ },
  { capability: 'stt', pattern: /^gpt-4o(-mini)?-transcribe/ },
  { capability: 'stt', providers: ['groq'], pattern: /^(distil-)?whisper-large-v3(-turbo)?(-en)?$/ },
  { capability: 'stt', pattern: /(^|-)whisper(-|$)/ },
  // tts-1, tts-1-hd, gpt-4o-mini-tts, playai-tts: and self-hosted Kokoro and Orpheus servers
  { capability: 'tts', pattern: /(^|[-_])tts([-_]|$)/ },
  { capability: 'tts', pattern: /^(kokoro|orpheus)/ },
];

interface Layer {
  grant: Record<Capability, string[]>;
  deny: Record<Capability, string[]>;
}

/** Splits override entries into grants and denials per capability (see the module comment). */
export function parseCapabilityEntries(entries: readonly string[] | null | undefined): Layer {
  const layer: Layer = {
    grant: { audio: [], stt: [], tts: [] },
    deny: { audio: [], stt: [], tts: [] },
  };
  for (const raw of entries ?? []) {
    const match = /^(-?)(audio|stt|tts):(.+)$/i.exec(raw.trim());
    if (!match) continue;
    const target = match[1] ? layer.deny : layer.grant;
    const capability = (match[2] ?? 'audio').toLowerCase() as Capability;
    target[capability].push((match[3] ?? '').trim().toLowerCase());
  }
  return layer;
}

function namesOf(model: string): string[] {
  const full = model.trim().toLowerCase();
  const last = full.split('/').pop() ?? full;
  return last === full ? [full] : [full, last];
}

function matches(pattern: string, names: readonly string[]): boolean {
  if (pattern.endsWith('*')) {
    const prefix = pattern.slice(0, -1);
    return names.some((name) => name.startsWith(prefix));
  }
  return names.includes(pattern);
}

function builtIn(capability: Capability, provider: string, names: readonly string[]): boolean {
  const providerName = provider.trim().toLowerCase();
  return BUILT_IN_RULES.some(
    (rule) =>
      rule.capability === capability &&
      (!rule.providers || rule.providers.includes(providerName)) &&
      names.some((name) => rule.pattern.test(name)),
  );
}

function decide(layers: readonly Layer[], capability: Capability, provider: string, model: string): boolean {
  const names = namesOf(model);
  for (const layer of layers) {
    if (layer.deny[capability].some((pattern) => matches(pattern, names))) return false;
    if (layer.grant[capability].some((pattern) => matches(pattern, names))) return true;
  }
  return builtIn(capability, provider, names);
}

function registryOf(layers: readonly Layer[]): CapabilityRegistry {
  return {
    acceptsAudio: (provider, model) => decide(layers, 'audio', provider, model),
    doesSpeechToText: (provider, model) => decide(layers, 'stt', provider, model),
    doesTextToSpeech: (provider, model) => decide(layers, 'tts', provider, model),
    withOverrides: (entries) => registryOf([parseCapabilityEntries(entries), ...layers]),
  };
}

/**
 * A registry of the built-in rules under the server config's entries (for instance from
 * `VOICE_EVAL_MODEL_CAPABILITIES`).
 */
export function createCapabilityRegistry(configEntries: readonly string[] = []): CapabilityRegistry {
  return registryOf([parseCapabilityEntries(configEntries)]);
}
