import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uploadedFilePath, uploadRoot } from './uploads.ts';

const hash = '0123456789abcdef01234567';

describe('uploadedFilePath', () => {
  it('finds only names the pipeline writes, inside UPLOAD_DIR', () => {
    expect(uploadedFilePath(`photos/${hash}-400.avif`)).toEqual({ file: join(uploadRoot(), 'photos', `${hash}-400.avif`), name: `${hash}-400.avif` });
    expect(uploadedFilePath(`social/${hash}-800x450.webp`)?.file).toBe(join(uploadRoot(), 'social', `${hash}-800x450.webp`));
  });

  it('refuses every other path', () => {
    for (const path of [
      undefined,
      '',
      `${hash}-400.avif`,
      `photos/../../site.db`,
      `photos/..%2f..%2fsite.db`,
      `../photos/${hash}-400.avif`,
      `photos/sub/${hash}-400.avif`,
      `other/${hash}-400.avif`,
      `photos/${hash}-400.avif.partial`,
      `photos/${hash}-400.svg`,
      `photos/.${hash}-400.avif`,
      `photos/${hash}-400.avif/`,
    ]) {
      expect(uploadedFilePath(path), String(path)).toBeNull();
    }
  });
});
