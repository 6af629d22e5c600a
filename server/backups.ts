// Backups of the SQLite database: an online copy through SQLite's backup API
// (consistent while the site takes writes), checked, named by time, and kept by
// a retention of the newest 7 days and 4 weeks. `npm run db:backup` and the
// server's nightly job call backUp(); `npm run db:restore` calls restore().
//
// Uploaded pictures (UPLOAD_DIR) are part of every backup: BACKUP_DIR/uploads
// mirrors them. Their names are content hashes and never change meaning, so
// each backup copies only the files it has not seen, and a file leaves the
// mirror only when no kept backup's database names it any more.
import Database from 'better-sqlite3';
import { constants, copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

const NAME = /^site-(\d{8})-(\d{6})\.db$/;

/** site-20261123-031500.db, in UTC so names sort by time. */
export function backupName(at: Date): string {
  const iso = at.toISOString(); // 2026-11-23T03:15:00.000Z
  return `site-${iso.slice(0, 10).replaceAll('-', '')}-${iso.slice(11, 19).replaceAll(':', '')}.db`;
}

function timeOf(name: string): number | null {
  const match = NAME.exec(name);
  if (!match) return null;
  const [, d, t] = match as unknown as [string, string, string];
  return Date.parse(`${d.slice(0, 4)}-${d.slice(4, 6)}-${d.slice(6)}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4)}Z`);
}

/**
 * Which backups to keep: the newest of each of the last `daily` days and the
 * newest of each of the last `weekly` weeks (weeks counted from the newest
 * backup). Files that are not backups are never touched.
 */
export function backupsToKeep(names: string[], { daily = 7, weekly = 4 } = {}): Set<string> {
  const dated = names
    .map((name) => ({ name, at: timeOf(name) }))
    .filter((entry): entry is { name: string; at: number } => entry.at !== null)
    .sort((a, b) => b.at - a.at);
  const keep = new Set<string>();
  if (dated.length === 0) return keep;
  const newest = dated[0]!.at;
  const DAY = 86_400_000;
  const days = new Set<number>();
  const weeks = new Set<number>();
  for (const { name, at } of dated) {
    const day = Math.floor((newest - at) / DAY);
    const week = Math.floor(day / 7);
    if (day < daily && !days.has(day)) {
      days.add(day);
      keep.add(name);
    }
    if (week < weekly && !weeks.has(week)) {
      weeks.add(week);
      keep.add(name);
    }
  }
  return keep;
}

/** The integrity check's verdict: "ok", or the first problems SQLite names. */
export function integrityOf(path: string): string {
  const db = new Database(path, { readonly: true, fileMustExist: true });
  try {
    const rows = db.pragma('integrity_check') as { integrity_check: string }[];
    return rows
      .map((row) => row.integrity_check)
      .slice(0, 5)
      .join('; ');
  } finally {
    db.close();
  }
}

export interface BackupResult {
  file: string;
  bytes: number;
  ms: number;
  removed: string[];
  /** Uploaded files copied into the mirror by this backup, and old ones dropped from it. */
  uploads?: { copied: number; removed: number };
}

const UPLOAD_KINDS = ['photos', 'social'];
const UPLOAD_NAME = /^([a-f0-9]{24})-[\dx]+\.(?:avif|webp)$/;

function uploadFiles(root: string): string[] {
  return UPLOAD_KINDS.flatMap((kind) => {
    const dir = join(root, kind);
    return existsSync(dir)
      ? readdirSync(dir)
          .filter((name) => UPLOAD_NAME.test(name))
          .map((name) => `${kind}/${name}`)
      : [];
  });
}

/** Copies the files of `from` that `to` lacks (each whole: written aside, then renamed). */
function copyMissing(from: string, to: string): number {
  let copied = 0;
  for (const path of uploadFiles(from)) {
    const target = join(to, path);
    if (existsSync(target)) continue;
    mkdirSync(join(target, '..'), { recursive: true });
    copyFileSync(join(from, path), `${target}.partial`, constants.COPYFILE_FICLONE);
    renameSync(`${target}.partial`, target);
    copied++;
  }
  return copied;
}

/** The picture hashes a database names (photos, covers, social thumbnails). */
function picturesNamedBy(databaseFile: string): Set<string> {
  const hashes = new Set<string>();
  const db = new Database(databaseFile, { readonly: true, fileMustExist: true });
  try {
    for (const query of ['select url as u from spa_photos', 'select image_url as u from spas', 'select thumbnail_url as u from social_media_cache']) {
      try {
        for (const row of db.prepare<[], { u: string | null }>(query).all()) {
          const match = /\/uploads\/(?:photos|social)\/([a-f0-9]{24})-/.exec(row.u ?? '');
          if (match) hashes.add(match[1]!);
        }
      } catch {
        // A database from before that table existed names nothing there.
      }
    }
  } finally {
    db.close();
  }
  return hashes;
}

/** Mirrors UPLOAD_DIR into BACKUP_DIR/uploads and drops files no kept backup and no live upload needs. */
function backUpUploads(uploadDir: string, backupDir: string): { copied: number; removed: number } {
  const mirror = join(backupDir, 'uploads');
  const copied = existsSync(uploadDir) ? copyMissing(uploadDir, mirror) : 0;
  const needed = new Set<string>();
  for (const name of readdirSync(backupDir).filter((n) => NAME.test(n))) for (const hash of picturesNamedBy(join(backupDir, name))) needed.add(hash);
  let removed = 0;
  for (const path of uploadFiles(mirror)) {
    const hash = UPLOAD_NAME.exec(path.split('/')[1]!)![1]!;
    if (needed.has(hash) || existsSync(join(uploadDir, path))) continue;
    rmSync(join(mirror, path), { force: true });
    removed++;
  }
  return { copied, removed };
}

/**
 * Copies the live database into `dir` with SQLite's online backup (pages are
 * copied in steps; writers carry on, and the copy is one consistent moment),
 * checks the copy, then applies the retention.
 */
export async function backUp(databasePath: string, dir: string, now = new Date(), { uploadDir }: { uploadDir?: string } = {}): Promise<BackupResult> {
  const started = performance.now();
  mkdirSync(dir, { recursive: true });
  const file = join(dir, backupName(now));
  const partial = `${file}.partial`;
  const source = new Database(databasePath, { readonly: true, fileMustExist: true });
  try {
    await source.backup(partial);
  } finally {
    source.close();
  }
  const verdict = integrityOf(partial);
  if (verdict !== 'ok') {
    rmSync(partial, { force: true });
    throw new Error(`the backup failed its integrity check: ${verdict}`);
  }
  renameSync(partial, file);
  const keep = backupsToKeep(readdirSync(dir));
  const removed = readdirSync(dir).filter((name) => NAME.test(name) && !keep.has(name));
  for (const name of removed) rmSync(join(dir, name), { force: true });
  const uploads = uploadDir ? backUpUploads(uploadDir, dir) : undefined;
  return { file, bytes: statSync(file).size, ms: Math.round(performance.now() - started), removed, uploads };
}

/**
 * Puts a backup in place of the database. The site must be stopped (the
 * caller checks); the backup must pass the integrity check first. The old
 * database is kept beside it as <name>.before-restore.
 */
export function restore(
  backupFile: string,
  databasePath: string,
  { uploadDir }: { uploadDir?: string } = {},
): { keptOld: string | null; uploadsRestored: number } {
  if (!existsSync(backupFile)) throw new Error(`no such backup: ${backupFile}`);
  const verdict = integrityOf(backupFile);
  if (verdict !== 'ok') throw new Error(`the backup failed its integrity check, nothing was changed: ${verdict}`);
  let keptOld: string | null = null;
  if (existsSync(databasePath)) {
    // Fold the WAL into the old file first, so the copy we keep is whole.
    const old = new Database(databasePath);
    old.pragma('wal_checkpoint(TRUNCATE)');
    old.close();
    keptOld = `${databasePath}.before-restore`;
    renameSync(databasePath, keptOld);
  }
  for (const suffix of ['-wal', '-shm']) rmSync(`${databasePath}${suffix}`, { force: true });
  copyFileSync(backupFile, `${databasePath}.restoring`);
  renameSync(`${databasePath}.restoring`, databasePath);
  // The pictures the restored database names come back from the mirror beside
  // the backup; pictures already in place are the same bytes and stay.
  const mirror = join(backupFile, '..', 'uploads');
  const uploadsRestored = uploadDir && existsSync(mirror) ? copyMissing(mirror, uploadDir) : 0;
  return { keptOld, uploadsRestored };
}
