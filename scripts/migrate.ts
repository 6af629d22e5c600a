// `npm run db:migrate`: apply the committed migrations to DATABASE_PATH.
import { migrateDatabase } from '../db/migrate.ts';
import { envPath, loadEnv } from './lib/env.ts';
import { logger } from '../src/lib/log.ts';

const log = logger('migrate');

loadEnv();
migrateDatabase(envPath('DATABASE_PATH'));
log.info(`${envPath('DATABASE_PATH')} is up to date`);
