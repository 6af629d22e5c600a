// Uploaded pictures (listing photos, social-card thumbnails) from UPLOAD_DIR.
// Names are content hashes, so an answer never changes: cached for a year.
// Only names the image pipeline writes are looked up (src/lib/server/photos/uploads.ts).
import type { APIRoute } from 'astro';
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { uploadContentType } from '#lib/photos.ts';
import { uploadedFilePath } from '#lib/server/photos/uploads.ts';

export const prerender = false;

const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

export const GET: APIRoute = ({ params, request }) => {
  const found = uploadedFilePath(params.path);
  const type = found && uploadContentType(found.name);
  if (!found || !type) return notFound();
  let size: number;
  try {
    const stat = statSync(found.file);
    if (!stat.isFile()) return notFound();
    size = stat.size;
  } catch {
    return notFound();
  }
  const headers = {
    'Content-Type': type,
    'Content-Length': String(size),
    'Cache-Control': 'public, max-age=31536000, immutable',
    ETag: `"${found.name}"`,
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
  };
  if (request.headers.get('if-none-match') === headers.ETag) return new Response(null, { status: 304, headers });
  if (request.method === 'HEAD') return new Response(null, { headers });
  return new Response(Readable.toWeb(createReadStream(found.file)) as ReadableStream, { headers });
};
