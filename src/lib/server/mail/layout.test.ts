import { describe, expect, it } from 'vitest';
import { escapeHtml, renderEmail, safeUrl } from './layout.ts';

describe('escapeHtml', () => {
  it('escapes the five characters that matter in content and quoted attributes', () => {
    expect(escapeHtml(`<a href="x" title='y'>Tom & Jerry</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;Tom &amp; Jerry&lt;/a&gt;');
  });

  it('leaves ordinary text alone and escapes an ampersand once', () => {
    expect(escapeHtml('Botox — $12/unit in Irvine')).toBe('Botox — $12/unit in Irvine');
    expect(escapeHtml('&amp;')).toBe('&amp;amp;');
  });
});

describe('safeUrl', () => {
  it.each(['https://ocmedspadirectory.com/login?token=abc', 'http://localhost:4321/bookings/7'])('accepts the absolute http(s) URL %s', (url) => {
    expect(safeUrl(url)).toBe(url);
  });

  it.each(['javascript:alert(1)', ' JavaScript:alert(1)', 'data:text/html,<script>alert(1)</script>', '/relative/path', 'mailto:a@b.c', 'not a url'])(
    'refuses %j',
    (url) => {
      expect(() => safeUrl(url)).toThrow(/http\(s\)/);
    },
  );
});

describe('renderEmail', () => {
  const content = {
    preheader: 'Your request is in',
    heading: 'Booking received',
    paragraphs: ['Thanks, Ana.', 'Glow Spa will confirm within 24 hours.\nNo payment is taken now.'],
    action: { label: 'View your booking', url: 'https://ocmedspadirectory.com/account/bookings/42' },
  };

  it('renders the plain-text part with the action as "label: url"', () => {
    const { text } = renderEmail(content);
    expect(text).toContain('Booking received\n\nThanks, Ana.\n\nGlow Spa will confirm within 24 hours.\nNo payment is taken now.');
    expect(text).toContain('View your booking: https://ocmedspadirectory.com/account/bookings/42');
    expect(text).toContain('Orange County Med Spa Directory');
    expect(text).not.toMatch(/<[a-z]/i);
  });

  it('renders an HTML part in the site palette with the brand, heading, paragraphs and a button', () => {
    const { html } = renderEmail(content);
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(html).toContain('Orange County Med Spa Directory');
    expect(html).toContain('#faf7f2');
    expect(html).toContain('#1c2b2d');
    expect(html).toMatch(/background:#0f5c5a/);
    expect(html).toMatch(/<a href="https:\/\/ocmedspadirectory\.com\/account\/bookings\/42" style="[^"]*color:#ffffff[^"]*">View your booking<\/a>/);
    expect(html).toMatch(/<h1 [^>]*>Booking received<\/h1>/);
    expect(html).toContain('Glow Spa will confirm within 24 hours.<br>No payment is taken now.');
    expect(html).toContain('Your request is in');
    expect(html).toContain('role="presentation"');
  });

  it('escapes markup and quotes in every interpolated string', () => {
    const hostile = `<script>alert("x")</script> & 'quoted'`;
    const { html, text } = renderEmail({
      preheader: hostile,
      heading: hostile,
      paragraphs: [hostile],
      action: { label: hostile, url: 'https://example.com/?q="><script>' },
      footer: hostile,
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain(`"x"`);
    expect(html).not.toContain(`'quoted'`);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;quoted&#39;');
    // Every href stays one quoted attribute value.
    for (const [, href] of html.matchAll(/href="([^"]*)"/g)) expect(href).toMatch(/^https:\/\/example\.com\//);
    // The text part is not HTML: it carries the words as written.
    expect(text).toContain(hostile);
  });

  it('refuses a javascript: action URL', () => {
    expect(() => renderEmail({ heading: 'Hi', paragraphs: [], action: { label: 'Click', url: 'javascript:alert(1)' } })).toThrow(/http\(s\)/);
  });

  it('leaves out the button and preheader when none are given, and uses a custom footer', () => {
    const { html, text } = renderEmail({ heading: 'Hello', paragraphs: ['One line.'], footer: 'You get this because you own Glow Spa.' });
    expect(html).not.toContain('<a href');
    expect(html).not.toContain('display:none');
    expect(html).toContain('You get this because you own Glow Spa.');
    expect(text).toBe('Hello\n\nOne line.\n\n-- \nYou get this because you own Glow Spa.\n');
  });
});
