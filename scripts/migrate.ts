// `npm run db:migrate`: apply the committed migrations to DATABASE_PATH, and
// fill the demo directory when the database has no spas yet (`npm run dev` runs it).
import { prepareDatabase } from '#db/prepare.ts';
import { logger } from '#lib/log.ts';
import { envPath, loadEnv } from '#server/env.ts';

const log = logger('migrate');

loadEnv();
const { seeded } = prepareDatabase(envPath('DATABASE_PATH'));
log.info(`${envPath('DATABASE_PATH')} is up to date${seeded ? `; seeded ${seeded.spas} demo spas` : ''}`);
