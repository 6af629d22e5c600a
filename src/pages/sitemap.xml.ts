import type { APIRoute } from 'astro';
import { publicPages } from '#lib/server/directory/public-pages.ts';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export const GET: APIRoute = ({ site }) => {
  const urls = publicPages().map((page) =>
    [
      '  <url>',
      `    <loc>${escapeXml(new URL(page.path, site).href)}</loc>`,
      page.lastModified ? `    <lastmod>${page.lastModified.toISOString()}</lastmod>` : null,
      `    <changefreq>${page.changeFrequency}</changefreq>`,
      `    <priority>${page.priority.toFixed(1)}</priority>`,
      '  </url>',
    ]
      .filter(Boolean)
      .join('\n'),
  );
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
  return new Response(xml, { headers: { 'Content-Type': 'application/xml; charset=utf-8' } });
};
