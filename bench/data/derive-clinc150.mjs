// Derives clinc150-subset.jsonl from the CLINC150 repository (github.com/clinc/oos-eval):
//   node derive-clinc150.mjs <path to data/data_full.json> <path to data/domains.json>
// The first INTENTS_PER_DOMAIN intents of each domain (domains.json order), and of each intent
// the first TEXTS_PER_INTENT texts of the `train` split (file order). Texts are kept verbatim.
import { readFileSync, writeFileSync } from 'node:fs';

const INTENTS_PER_DOMAIN = 5;
const TEXTS_PER_INTENT = 60;

const [full, domainsPath] = process.argv.slice(2);
const data = JSON.parse(readFileSync(full, 'utf8'));
const domains = JSON.parse(readFileSync(domainsPath, 'utf8'));
const lines = [];
for (const [domain, intents] of Object.entries(domains)) {
  for (const intent of intents.slice(0, INTENTS_PER_DOMAIN)) {
    const texts = data.train.filter(([, label]) => label === intent).slice(0, TEXTS_PER_INTENT);
    if (texts.length !== TEXTS_PER_INTENT) throw new Error(`${intent}: ${texts.length} texts`);
    for (const [text] of texts) lines.push(JSON.stringify({ domain, intent, text }));
  }
}
writeFileSync(new URL('./clinc150-subset.jsonl', import.meta.url), `${lines.join('\n')}\n`);
console.log(`${lines.length} texts`);
