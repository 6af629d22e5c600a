// The server's database handle. The path is read at run time (astro:env secret),
// so one build serves whichever database the environment names.
import { DATABASE_PATH } from 'astro:env/server';
import { openDatabase } from '#db/client.ts';

export const db = openDatabase(DATABASE_PATH);
