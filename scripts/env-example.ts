// Writes .env.example from the settings table in server/env.ts.
import { writeFileSync } from 'node:fs';
import { envExample } from '#server/env.ts';

writeFileSync('.env.example', envExample());
