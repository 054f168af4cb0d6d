import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createOpenApiDocument } from '../src/openapi.js';

const target = fileURLToPath(new URL('../openapi.json', import.meta.url));
writeFileSync(target, `${JSON.stringify(createOpenApiDocument(), null, 2)}\n`);
console.log(`wrote ${target}`);
