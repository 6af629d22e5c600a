// `npm start`: migrate, seed an empty database with the demo directory, build the
// site when the build is missing or older than the data or the code, and serve.
import { spawnSync } from 'node:child_process';
import { prepareDatabase } from '#db/prepare.ts';
import { logger } from '#lib/log.ts';
import { envPath, loadEnv } from './env.ts';
import { startServer } from './serve.ts';

const log = logger('start');

loadEnv();
const { seeded } = prepareDatabase(envPath('DATABASE_PATH'));
if (seeded) log.info(`seeded the demo directory (${seeded.spas} spas, ${seeded.services} services, ${seeded.offers} offers)`);
// The build runs in its own process so Vite's memory is given back before we serve.
const publish = spawnSync(process.execPath, ['server/rebuild.ts', '--if-stale'], { stdio: 'inherit' });
if (publish.status !== 0) process.exit(publish.status ?? 1);
await startServer();
