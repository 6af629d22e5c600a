// `npm run db:seed`: migrate and (re)fill the demo directory. Safe to run again.
import { migrateDatabase } from '#db/migrate.ts';
import { seedDemo } from '#db/seed.ts';
import { envPath, loadEnv } from '#server/env.ts';
import { logger } from '#lib/log.ts';

const log = logger('seed');

loadEnv();
const path = envPath('DATABASE_PATH');
const counts = seedDemo(migrateDatabase(path));
log.info(`${path}: ${counts.cities} cities, ${counts.spas} spas, ${counts.services} services, ${counts.offers} offers`);
