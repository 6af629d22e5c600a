import type { APIRoute } from 'astro';

// Private screens stay out of search engines; everything public is in sitemap.xml.
export const GET: APIRoute = ({ site }) =>
  new Response(
    [
      'User-agent: *',
      'Allow: /',
      'Disallow: /api/',
      'Disallow: /owner/',
      'Disallow: /admin/',
      'Disallow: /checkout',
      'Disallow: /subscription',
      '',
      `Sitemap: ${new URL('/sitemap.xml', site)}`,
      '',
    ].join('\n'),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
  );
