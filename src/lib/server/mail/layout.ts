// The one look of every e-mail: a plain-text part and a matching HTML part.
// HTML mail clients ignore stylesheets and most modern CSS, so the HTML is a
// table layout with inline styles in the site's palette (docs/decisions/0005).
import { brand } from '#content/site.ts';

export interface EmailContent {
  /** The line inboxes show after the subject; hidden in the message itself. */
  preheader?: string;
  heading: string;
  /** Plain text; a line break inside one is kept. */
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
}

const palette = {
  sand: '#faf7f2',
  stone: '#e7dfd3',
  ink: '#1c2b2d',
  inkMuted: '#4b5b5d',
  teal: '#0f5c5a',
  white: '#ffffff',
} as const;

const serif = "'Iowan Old Style', 'Palatino Linotype', Palatino, Georgia, serif";
const sans = "-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif";

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

/** The URL, normalised, when it is http(s); anything else (javascript:, data:, relative) is a programming error. */
export function safeUrl(url: string): string {
  const parsed = URL.parse(url.trim());
  if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')) {
    throw new Error(`e-mail links must be absolute http(s) URLs, not ${JSON.stringify(url)}`);
  }
  return parsed.href;
}

const paragraphHtml = (text: string) =>
  `<p style="margin:0 0 16px;font-family:${sans};font-size:16px;line-height:1.6;color:${palette.ink}">${escapeHtml(text).replace(/\r?\n/g, '<br>')}</p>`;

function actionHtml(label: string, url: string): string {
  const href = escapeHtml(url);
  // A table cell carries the colour so the button survives clients (Outlook)
  // that drop padding and backgrounds on links; the link below it is for
  // clients that block or mangle buttons.
  return `<table role="presentation" cellspacing="0" cellpadding="0" border="0" style="margin:8px 0 24px">
<tr><td style="border-radius:8px;background:${palette.teal}" bgcolor="${palette.teal}">
<a href="${href}" style="display:inline-block;padding:12px 24px;font-family:${sans};font-size:16px;font-weight:600;line-height:1.25;color:${palette.white};text-decoration:none;border-radius:8px">${escapeHtml(label)}</a>
</td></tr></table>
<p style="margin:0 0 16px;font-family:${sans};font-size:14px;line-height:1.5;color:${palette.inkMuted}">If the button does not work, open this link: <a href="${href}" style="color:${palette.teal};word-break:break-all">${escapeHtml(url)}</a></p>`;
}

export function renderEmail(content: EmailContent): { text: string; html: string } {
  const action = content.action && { label: content.action.label, url: safeUrl(content.action.url) };
  const footer = content.footer ?? `${brand.name} · ${brand.county}, ${brand.state}`;

  const text = [content.heading, ...content.paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), `-- \n${footer}`].join('\n\n') + '\n';

  // Padding after the preheader keeps clients from filling the preview line
  // with the start of the body.
  const preheader = content.preheader
    ? `<div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all">${escapeHtml(content.preheader)}${'&#847;&zwnj;&nbsp;'.repeat(30)}</div>`
    : '';

  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(content.heading)}</title>
</head>
<body style="margin:0;padding:0;background:${palette.sand}">
${preheader}
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="background:${palette.sand}" bgcolor="${palette.sand}">
<tr><td align="center" style="padding:24px 12px">
<table role="presentation" width="100%" cellspacing="0" cellpadding="0" border="0" style="max-width:600px">
<tr><td style="padding:0 8px 16px;font-family:${serif};font-size:18px;color:${palette.teal}">${escapeHtml(brand.name)}</td></tr>
<tr><td style="padding:32px 28px 16px;background:${palette.white};border:1px solid ${palette.stone};border-radius:12px" bgcolor="${palette.white}">
<h1 style="margin:0 0 20px;font-family:${serif};font-size:26px;line-height:1.25;font-weight:normal;color:${palette.ink}">${escapeHtml(content.heading)}</h1>
${content.paragraphs.map(paragraphHtml).join('\n')}
${action ? actionHtml(action.label, action.url) : ''}
</td></tr>
<tr><td style="padding:16px 8px;font-family:${sans};font-size:13px;line-height:1.5;color:${palette.inkMuted}">${escapeHtml(footer).replace(/\r?\n/g, '<br>')}</td></tr>
</table>
</td></tr>
</table>
</body>
</html>
`;
  return { text, html };
}
