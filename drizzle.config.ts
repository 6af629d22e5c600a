import { defineConfig } from 'drizzle-kit';
import { env } from './server/env.ts';

export default defineConfig({
  dialect: 'sqlite',
  schema: './db/schema.ts',
  out: './db/migrations',
  dbCredentials: { url: env('DATABASE_PATH') },
  strict: true,
});
