// The Content-Security-Policy of every page (docs/decisions/0022). Astro's
// `security.csp` hashes the scripts and styles it bundles and writes the
// policy; this module gives it the rest: our own inline snippets (their text
// lives here, so the hash and the page can never disagree), the third-party
// hosts of what is configured, and the directives Astro leaves to us.
// Read by astro.config.mjs at build time (plain Node) and by the components
// that print the snippets.
import { createHash } from 'node:crypto';
import type { AstroUserConfig } from 'astro';

type AstroCsp = Exclude<NonNullable<NonNullable<AstroUserConfig['security']>['csp']>, boolean>;
type CspDirective = NonNullable<AstroCsp['directives']>[number];
type ScriptDirective = NonNullable<AstroCsp['scriptDirective']>;
/** Astro's policy shape with every part present (the tests read them). */
interface Policy {
  algorithm: 'SHA-256';
  directives: CspDirective[];
  scriptDirective: { resources: NonNullable<ScriptDirective['resources']>; hashes: NonNullable<ScriptDirective['hashes']> };
}

/** Inline scripts the layout and pages print as they are (is:inline): each one's hash is in the policy. */
export const inlineScripts = {
  /** The landing page's utm_* values, kept for the tab so a booking made pages later still credits its campaign (src/lib/client/booking.ts reads them). */
  visitSource: `try{const q=new URLSearchParams(location.search);const s={};['source','medium','campaign'].forEach(function(k){const v=q.get('utm_'+k);if(v)s[k]=v.slice(0,100);});if(Object.keys(s).length)sessionStorage.setItem('visit_source',JSON.stringify(s));}catch{}`,
  /**
   * Spec 8: an image that fails to load shows its data-fallback picture
   * (src/components/SafeImage.astro). One listener for the whole page, in the
   * head so it is there before the first image: an onerror attribute would be
   * an inline handler, which no policy without 'unsafe-inline' runs.
   */
  imageFallback: `document.addEventListener('error',function(e){const i=e.target;if(i instanceof HTMLImageElement&&i.dataset.fallback&&!i.dataset.fellBack){i.dataset.fellBack='1';if(i.parentElement instanceof HTMLPictureElement)i.parentElement.querySelectorAll('source').forEach(function(s){s.remove();});i.src=i.dataset.fallback;}},true);`,
  /** Schedule (spec 2) on /services goes to the home page's request form with the chosen consultation. */
  scheduleService: `document.addEventListener('click',function(event){const link=event.target instanceof Element&&event.target.closest('[data-schedule-service]');if(!link)return;try{sessionStorage.setItem('booking_service',JSON.stringify({id:Number(link.dataset.scheduleService),label:link.dataset.scheduleLabel}));}catch{}});`,
} as const;

/** The Google tag's bootstrap for one tag id (the id is checked, so it cannot break out of the string). */
export function pageAnalyticsBootstrap(id: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(id)) throw new Error(`PUBLIC_PAGE_ANALYTICS_ID=${JSON.stringify(id)} is not a Google tag id (G-XXXX)`);
  // The Google tag reads the arguments object itself, not an array copy.
  return `window.dataLayer=window.dataLayer||[];window.gtag=function(){window.dataLayer.push(arguments);};window.gtag('js',new Date());window.gtag('config','${id}');`;
}

export const cspHash = (code: string) => `sha256-${createHash('sha256').update(code).digest('base64')}`;

export interface CspEnv {
  SITE_URL?: string;
  PUBLIC_PAGE_ANALYTICS_ID?: string;
  PUBLIC_STRIPE_PUBLISHABLE_KEY?: string;
  STRIPE_API_HOST?: string;
  STRIPE_API_PORT?: string;
  STRIPE_API_PROTOCOL?: string;
}

/** Stripe.js, its API and its frames (Stripe's published CSP list); Checkout and the billing portal are form targets. */
const STRIPE = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  connect: ['https://api.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  form: ['https://checkout.stripe.com', 'https://billing.stripe.com'],
};
/** The Google tag (Google's CSP guide for GA4). */
const ANALYTICS = {
  script: ['https://www.googletagmanager.com'],
  connect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
};

/**
 * Astro's `security.csp` for this environment. Hosts appear only for what is
 * configured: no Stripe key, no Stripe; no tag id, no Google tag.
 */
export function contentSecurityPolicy(env: CspEnv): Policy {
  const stripe = Boolean(env.PUBLIC_STRIPE_PUBLISHABLE_KEY);
  const analyticsId = env.PUBLIC_PAGE_ANALYTICS_ID || '';
  const https = (env.SITE_URL ?? '').startsWith('https:');
  // Tests point the Stripe SDK at a local stand-in, whose Checkout pages a plan form is redirected to.
  const stripeStandIn =
    stripe && env.STRIPE_API_HOST
      ? [`${env.STRIPE_API_PROTOCOL || 'https'}://${env.STRIPE_API_HOST}${env.STRIPE_API_PORT ? `:${env.STRIPE_API_PORT}` : ''}`]
      : [];
  const list = (...parts: string[][]) => parts.flat().join(' ');
  const scripts = [
    inlineScripts.visitSource,
    inlineScripts.imageFallback,
    inlineScripts.scheduleService,
    ...(analyticsId ? [pageAnalyticsBootstrap(analyticsId)] : []),
  ];
  return {
    algorithm: 'SHA-256',
    directives: [
      "default-src 'self'",
      // Owners' and Google profile photos are https images from anywhere; an image cannot run script.
      "img-src 'self' data: https:",
      "font-src 'self'",
      `connect-src ${list(["'self'"], stripe ? STRIPE.connect : [], analyticsId ? ANALYTICS.connect : [])}`,
      `frame-src ${stripe ? list(STRIPE.frame) : "'none'"}`,
      "object-src 'none'",
      "base-uri 'self'",
      `form-action ${list(["'self'"], stripe ? STRIPE.form : [], stripeStandIn)}`,
      "frame-ancestors 'none'",
      ...(https ? ['upgrade-insecure-requests'] : []),
    ] as CspDirective[],
    scriptDirective: {
      resources: ["'self'", ...(stripe ? STRIPE.script : []), ...(analyticsId ? ANALYTICS.script : [])],
      hashes: scripts.map((code) => cspHash(code) as NonNullable<ScriptDirective['hashes']>[number]),
    },
  };
}
