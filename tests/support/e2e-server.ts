// The site under test: a fresh database in this run's folder, seeded with the
// demo directory, published by the real rebuild, served by the real server.
import { spawnSync } from 'node:child_process';
import { prepareDatabase } from '#db/prepare.ts';
import { startServer } from '#server/serve.ts';

prepareDatabase(process.env.DATABASE_PATH!);
const publish = spawnSync(process.execPath, ['server/rebuild.ts'], { stdio: 'inherit' });
if (publish.status !== 0) process.exit(publish.status ?? 1);
await startServer();
