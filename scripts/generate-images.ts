/**
 * Generates every illustration the site ships: category icons, service-card
 * fallbacks, spa and city hero art, offer banners, the logo, favicon, default
 * picture and avatar placeholder. All artwork is committed to the repository
 * under public/ so the site never hot-links third-party images (no broken
 * links, no tracking, no licensing questions, fast same-origin loads). The
 * output is plain hand-built SVG in the site's palette, produced from a seeded
 * PRNG so it is fully deterministic: re-running rewrites identical files.
 * Re-run to regenerate after changing the palette or a drawing:
 *   node scripts/generate-images.ts   (from the repository root)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Buffer } from 'node:buffer';
import { logger } from '#lib/log.ts';

const log = logger('images');

// ---------------------------------------------------------------- palette
const C = {
  sand: '#faf7f2',
  shell: '#f3ede4',
  stone: '#e7dfd3',
  sage: '#9fb8ad',
  sea: '#2f7d7a',
  deep: '#0f5c5a',
  ink: '#1c2b2d',
  gold: '#b08a3e',
  blush: '#e9c9c0',
  mist: '#dbe7e4',
  white: '#fff',
} as const;

// ---------------------------------------------------------------- core helpers
const OUT = join(import.meta.dirname, '..', 'public');
const MAX_BYTES = 6 * 1024;
const written: { rel: string; bytes: number }[] = [];

function write(rel: string, svg: string): void {
  const file = join(OUT, rel);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, svg);
  written.push({ rel, bytes: Buffer.byteLength(svg) });
}

/** Coordinate precision: 1 decimal for small artwork, whole pixels for large canvases. */
let scale10 = 10;
function precision(decimals: 0 | 1): void {
  scale10 = decimals ? 10 : 1;
}

/** Round coordinates; keeps the files small and stable. */
function f(v: number): string {
  const r = Math.round(v * scale10) / scale10;
  return String(r === 0 ? 0 : r);
}

/** Checked index access: throws instead of yielding undefined for an out-of-range index. */
function at<T>(xs: readonly T[], i: number): T {
  const x = xs[i];
  if (x === undefined) throw new Error(`index ${i} out of range (length ${xs.length})`);
  return x;
}

/** Template tag that formats every interpolated number with f(). */
function P(strings: TemplateStringsArray, ...vals: (number | string)[]): string {
  let s = at(strings, 0);
  vals.forEach((v, i) => {
    s += (typeof v === 'number' ? f(v) : v) + at(strings, i + 1);
  });
  return s;
}

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function svgDoc(w: number, h: number, title: string, defs: string, body: string, vb = `0 0 ${w} ${h}`): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="${vb}" role="img">` +
    `<title>${esc(title)}</title>${defs ? `<defs>${defs}</defs>` : ''}${body}</svg>\n`
  );
}

type Rng = {
  next(): number;
  range(a: number, b: number): number;
  int(a: number, b: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
};

/** mulberry32: tiny, fast, deterministic. */
function rng(seed: number): Rng {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    range: (x, y) => x + (y - x) * next(),
    int: (x, y) => Math.floor(x + (y - x + 1) * next()),
    pick: (xs) => at(xs, Math.floor(next() * xs.length)),
    chance: (p) => next() < p,
  };
}

type Stop = [number, string, number?];
/** A colour, or a colour with its opacity. */
type Paint = string | readonly [string, number];
const stops = (s: Stop[]): string =>
  s.map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}"${a !== undefined && a !== 1 ? ` stop-opacity="${a}"` : ''}/>`).join('');
const stop = (offset: number, paint: Paint): Stop => (typeof paint === 'string' ? [offset, paint] : [offset, ...paint]);
/** The two-stop ramp most gradients are: `from` at the start, `to` at the end. */
const fromTo = (from: Paint, to: Paint): Stop[] => [stop(0, from), stop(1, to)];
/** A ramp from `from` through one stop between to `to`. */
const through = (from: Paint, middle: Stop, to: Paint): Stop[] => [stop(0, from), middle, stop(1, to)];
/** One colour fading from `opacity` to transparent (halos, light falling in). */
const fade = (color: string, opacity: number): Stop[] => fromTo([color, opacity], [color, 0]);
/** Where a linear gradient runs, as SVG's x1/y1/x2/y2 (x1 and y1 are always 0, which SVG assumes). */
const DIRECTIONS = { down: [0, 1], diagonal: [1, 1], across: [1, 0] } as const;
/** Linear gradient, top to bottom unless told otherwise. Default SVG attributes are omitted. */
const lg = (id: string, s: Stop[], direction: keyof typeof DIRECTIONS = 'down'): string => {
  const [x2, y2] = DIRECTIONS[direction];
  return `<linearGradient id="${id}"${x2 === 1 ? '' : ` x2="${x2}"`}${y2 ? ` y2="${y2}"` : ''}>${stops(s)}</linearGradient>`;
};
/** Radial gradient centred in the bounding box (SVG defaults). */
const rg = (id: string, s: Stop[]): string => `<radialGradient id="${id}">${stops(s)}</radialGradient>`;

const op = (v: number): string => (v < 1 ? ` opacity="${Math.round(v * 100) / 100}"` : '');
const rect = (x: number, y: number, w: number, h: number, fill: string, extra = ''): string =>
  P`<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="${fill}"${extra}/>`;
const circ = (cx: number, cy: number, r: number, fill: string, extra = ''): string => P`<circle cx="${cx}" cy="${cy}" r="${r}" fill="${fill}"${extra}/>`;
const ell = (cx: number, cy: number, rx: number, ry: number, fill: string, extra = ''): string =>
  P`<ellipse cx="${cx}" cy="${cy}" rx="${rx}" ry="${ry}" fill="${fill}"${extra}/>`;
const path = (d: string, fill: string, extra = ''): string => `<path d="${d}" fill="${fill}"${extra}/>`;
const line = (d: string, stroke: string, w: number, extra = '', cap = 'round'): string =>
  P`<path d="${d}" fill="none" stroke="${stroke}" stroke-width="${w}" stroke-linecap="${cap}"${extra}/>`;

// ---------------------------------------------------------------- shape library
/** Four-point concave sparkle. */
function sparkle(x: number, y: number, r: number): string {
  const k = r * 0.16;
  return P`M${x} ${y - r}Q${x + k} ${y - k} ${x + r} ${y}Q${x + k} ${y + k} ${x} ${y + r}Q${x - k} ${y + k} ${x - r} ${y}Q${x - k} ${y - k} ${x} ${y - r}Z`;
}

/** Arch: round-topped rectangle, top at y, total height h. */
function arch(x: number, y: number, w: number, h: number): string {
  const r = w / 2;
  return P`M${x} ${y + h}V${y + r}A${r} ${r} 0 0 1 ${x + w} ${y + r}V${y + h}Z`;
}

/** Leaf subpath from (x,y) at angle (deg), with optional downward droop. */
function leaf(x: number, y: number, len: number, ang: number, wid: number, droop = 0): string {
  const a = (ang * Math.PI) / 180;
  const tx = x + Math.cos(a) * len;
  const ty = y + Math.sin(a) * len + droop * 0.7;
  const mx = (x + tx) / 2;
  const my = (y + ty) / 2 + droop * 0.5;
  const px = -Math.sin(a) * wid;
  const py = Math.cos(a) * wid;
  // Relative commands keep the numbers short.
  return P`M${x} ${y}q${mx + px - x} ${my + py - y} ${tx - x} ${ty - y}q${mx - px - tx} ${my - py - ty} ${x - tx} ${y - ty}z`;
}

type Point = readonly [number, number];

/** Smooth ridge through points, closed down to `bottom`. */
function ridge(pts: readonly Point[], bottom: number): string {
  const [x0, y0] = at(pts, 0);
  let d = P`M${x0} ${bottom}L${x0} ${y0}`;
  for (let i = 1; i < pts.length - 1; i++) {
    const [x, y] = at(pts, i);
    const [nx, ny] = at(pts, i + 1);
    d += P`Q${x} ${y} ${(x + nx) / 2} ${(y + ny) / 2}`;
  }
  const [lx, ly] = at(pts, pts.length - 1);
  return d + P`L${lx} ${ly}L${lx} ${bottom}Z`;
}

function hillPts(r: Rng, y: number, amp: number, n: number, x0 = -40, x1 = 1240): Point[] {
  const pts: Point[] = [];
  for (let i = 0; i <= n; i++) pts.push([x0 + ((x1 - x0) * i) / n, y + r.range(-amp, amp)]);
  return pts;
}

/** Short horizontal strokes suggesting still water. */
function waterLines(r: Rng, x0: number, x1: number, y0: number, y1: number, n: number): string {
  let d = '';
  for (let i = 0; i < n; i++) {
    const y = y0 + ((y1 - y0) * (i + r.range(0.1, 0.9))) / n;
    const len = r.range(30, 120) * (0.6 + (0.6 * (y - y0)) / Math.max(1, y1 - y0));
    const x = r.range(x0, x1 - len);
    d += P`M${x} ${y}h${len}`;
  }
  return d;
}

/** Gentle wave band across the canvas, filled down to `bottom`. */
function waveBand(y: number, amp: number, wl: number, phase: number, bottom: number, W = 1200): string {
  let d = P`M${-wl + phase} ${y}`;
  for (let x = -wl + phase, i = 0; x < W + wl; x += wl / 2, i++) {
    d += P`q${wl / 4} ${i % 2 ? amp : -amp} ${wl / 2} 0`;
  }
  return d + P`V${bottom}H${-wl}Z`;
}

/** Dot subpath (for batching many circles into one <path>). */
const dot = (x: number, y: number, r: number): string => {
  const R = Number(f(r)) || 1; // round first so both half-arcs share one exact diameter
  return P`M${x - R} ${y}a${R} ${R} 0 1 0 ${2 * R} 0a${R} ${R} 0 1 0 ${-2 * R} 0`;
};

/** Palm silhouette: trunk + drooping fronds. */
function palm(x: number, base: number, h: number, lean: number, color: string, r: Rng, o = 1): string {
  const cx = x + lean;
  const cy = base - h;
  const trunk = line(P`M${x} ${base}Q${x + lean * 0.1} ${base - h * 0.55} ${cx} ${cy}`, color, h * 0.035, op(o));
  let fr = '';
  const angs = [-170, -145, -118, -95, -70, -42, -14, 12, 168];
  for (const a of angs) {
    const len = h * r.range(0.3, 0.42);
    const rad = (a * Math.PI) / 180;
    const droop = len * (0.1 + 0.45 * (1 - Math.abs(Math.sin(rad))));
    fr += leaf(cx, cy, len, a + r.range(-6, 6), len * 0.2, droop);
  }
  return trunk + path(fr, color, op(o));
}

// ---------------------------------------------------------------- icons (48x48)
const CATS = ['facial', 'laser', 'injectable', 'body', 'wellness', 'consultation', 'default'] as const;
type Cat = (typeof CATS)[number];
type IconFn = (fill: string) => string;
/** A stroke-only shape (icons are drawn inside a group that sets stroke and `fill="none"`). */
const outline = (d: string, extra = ''): string => `<path d="${d}"${extra}/>`;
const roundedRect = (x: number, y: number, w: number, h: number, rx: number, fill: string): string =>
  P`<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${rx}" fill="${fill}"/>`;

const ICONS: Record<Cat, { title: string; draw: IconFn }> = {
  facial: {
    title: 'Facial treatments',
    draw: (fl) =>
      ell(21, 25, 11, 14, fl) +
      outline('M10.5 21.5c2.5-5.5 8-8.5 15-7.5') +
      outline('M15.5 25.5q2 1.6 4 0M22.5 25.5q2 1.6 4 0M18.5 32q2.5 1.4 5 0') +
      path(sparkle(38, 10, 6.5), fl),
  },
  laser: {
    title: 'Laser treatments',
    draw: (fl) =>
      roundedRect(16, 4, 16, 9, 3, fl) +
      outline('M21 13v3h6v-3') +
      path('M22 16l-5 18h14l-5-18', fl, ' stroke-dasharray="0"') +
      outline('M6 38c4-2.7 8-2.7 12 0s8 2.7 12 0 8-2.7 12 0') +
      outline('M10 27l-3-1.5M38 27l3-1.5M11.5 20l-3-3M36.5 20l3-3'),
  },
  injectable: {
    title: 'Injectables',
    draw: (fl) =>
      '<g transform="rotate(-45 24 24)">' +
      roundedRect(14, 19, 18, 10, 1.5, fl) +
      outline('M19 19v4M23 19v4M27 19v4M32 16v16M32 24h7M39 19.5v9M14 24h-4M10 24H4') +
      outline('M10 22v4') +
      '</g>',
  },
  body: {
    title: 'Body contouring',
    draw: (fl) =>
      ell(24, 24, 6, 3, fl, ' stroke="none"') +
      outline('M13 5c3 8 6 12.5 5 19s-5.5 10.5-4.5 19M35 5c-3 8-6 12.5-5 19s5.5 10.5 4.5 19') +
      outline('M18 24q6 3 12 0', ' stroke-dasharray="2 3"') +
      path(sparkle(41, 9, 4.5), fl),
  },
  wellness: {
    title: 'Wellness',
    draw: (fl) =>
      path('M24 11c5 5.5 5.5 16 0 23-5.5-7-5-17.5 0-23z', fl) +
      outline('M24 34c-7-1-12-7-12.5-15 6 1 10.5 6 12.5 15zM24 34c7-1 12-7 12.5-15-6 1-10.5 6-12.5 15z') +
      outline('M21 33.5c-7 1.5-13-.5-17-5.5 5-1.5 10 .5 13.5 3.5M27 33.5c7 1.5 13-.5 17-5.5-5-1.5-10 .5-13.5 3.5') +
      outline('M9 40h30M16 44h16'),
  },
  consultation: {
    title: 'Consultation',
    draw: (fl) =>
      path('M12 7h24a5 5 0 0 1 5 5v14a5 5 0 0 1-5 5H22l-8 7v-7h-2a5 5 0 0 1-5-5V12a5 5 0 0 1 5-5z', fl) +
      outline('M16.5 19l4.5 4.5 10-10') +
      outline('M30 36h11M33 41h8'),
  },
  default: {
    title: 'Med spa service',
    draw: (fl) => path(sparkle(21, 26, 16), fl) + outline(sparkle(38.5, 10, 5.5)) + circ(39, 37, 1.6, C.deep, ' stroke="none"'),
  },
};

function icon(key: Cat): string {
  const { title, draw } = ICONS[key];
  return svgDoc(48, 48, title, '', `<g fill="none" stroke="${C.deep}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${draw(C.mist)}</g>`);
}

// ---------------------------------------------------------------- fallback cards (800x600)
const FALLBACK: Record<Cat, { bg: [string, string]; tint: string; accent: string; deco: string }> = {
  facial: { bg: [C.blush, C.sand], tint: C.blush, accent: C.gold, deco: 'sun' },
  laser: { bg: [C.mist, C.sand], tint: C.mist, accent: C.sea, deco: 'rays' },
  injectable: { bg: [C.shell, C.blush], tint: C.blush, accent: C.gold, deco: 'drops' },
  body: { bg: [C.stone, C.sand], tint: C.blush, accent: C.sage, deco: 'waves' },
  wellness: { bg: [C.mist, C.sage], tint: C.mist, accent: C.sea, deco: 'leaves' },
  consultation: { bg: [C.sand, C.mist], tint: C.mist, accent: C.sage, deco: 'arches' },
  default: { bg: [C.shell, C.stone], tint: C.stone, accent: C.gold, deco: 'pebbles' },
};

function fallback(key: Cat, seed: number): string {
  const cfg = FALLBACK[key];
  const r = rng(seed);
  const id = `f${key[0]}${key[1]}`;
  const defs = lg(`${id}b`, fromTo(...cfg.bg), 'diagonal') + rg(`${id}h`, through([C.white, 0.75], [0.7, C.white, 0.35], [C.white, 0]));
  let deco = '';
  switch (cfg.deco) {
    case 'sun':
      deco = circ(610, 170, 120, C.gold, op(0.16)) + path(arch(-60, 330, 260, 400), C.sand, op(0.5)) + path(arch(640, 360, 220, 300), C.blush, op(0.7));
      break;
    case 'rays': {
      let d = '';
      for (let i = 0; i < 7; i++) {
        const x = -200 + i * 150;
        d += P`M${x} 0h60L${x + 420} 600h-60Z`;
      }
      deco = path(d, C.white, op(0.28)) + circ(660, 130, 70, C.sage, op(0.3));
      break;
    }
    case 'drops': {
      let d = '';
      for (let i = 0; i < 9; i++) {
        const x = r.range(40, 760);
        const y = r.range(40, 560);
        if (Math.hypot(x - 400, y - 300) < 250) continue;
        const s = r.range(10, 22);
        d += P`M${x} ${y - s * 1.6}C${x + s * 0.3} ${y - s * 0.9} ${x + s} ${y - s * 0.4} ${x + s} ${y + s * 0.25}A${s} ${s} 0 0 1 ${x - s} ${y + s * 0.25}C${x - s} ${y - s * 0.4} ${x - s * 0.3} ${y - s * 0.9} ${x} ${y - s * 1.6}Z`;
      }
      deco = path(d, C.gold, op(0.22)) + circ(120, 520, 150, C.sand, op(0.6));
      break;
    }
    case 'waves':
      deco =
        path(waveBand(470, 14, 260, 0, 600, 800), C.sage, op(0.35)) +
        path(waveBand(520, 12, 300, 80, 600, 800), C.sage, op(0.45)) +
        circ(150, 140, 90, C.blush, op(0.6));
      break;
    case 'leaves': {
      let a = '';
      let b = '';
      for (let i = 0; i < 5; i++) a += leaf(-20, 620, r.range(200, 300), -80 + i * 16, 40, 0);
      for (let i = 0; i < 5; i++) b += leaf(820, -20, r.range(180, 260), 100 + i * 16, 36, 0);
      deco = path(a, C.sea, op(0.2)) + path(b, C.sand, op(0.4));
      break;
    }
    case 'arches':
      deco = path(arch(40, 120, 200, 520), C.white, op(0.4)) + path(arch(580, 200, 180, 440), C.sage, op(0.22)) + circ(690, 130, 40, C.gold, op(0.2));
      break;
    default: {
      deco =
        ell(640, 520, 140, 60, C.sand, op(0.8)) +
        ell(700, 470, 90, 40, C.sage, op(0.35)) +
        ell(150, 110, 120, 60, C.sand, op(0.6)) +
        ell(110, 530, 80, 34, C.stone, op(0.9));
    }
  }
  const body =
    rect(0, 0, 800, 600, `url(#${id}b)`) +
    deco +
    circ(400, 300, 225, `url(#${id}h)`) +
    circ(400, 300, 212, 'none', P` stroke="${cfg.accent}" stroke-width="1.5"${op(0.45)}`) +
    `<g transform="translate(208 108) scale(8)" fill="none" stroke="${C.deep}" stroke-width=".72" stroke-linecap="round" stroke-linejoin="round">${ICONS[key].draw(cfg.tint)}</g>`;
  return svgDoc(800, 600, `${ICONS[key].title} illustration`, defs, body);
}

// ---------------------------------------------------------------- spa interiors (1200x800)
/** What the room is built of: wall and floor gradients, the reveal (the recess around an opening, drawn at revealOp), the frame and how dark shadows fall. */
type Surfaces = {
  wall: [string, string];
  floor: [string, string];
  reveal: string;
  revealOp: number;
  frame: string;
  shadow: number;
};

/** What the windows look out on, and the light that falls in through them. */
type Outlook = {
  sky: [string, string];
  sun: string;
  sea: [string, string];
  hill: string;
  light: string;
  lightOp: number;
};

/** What stands in the room: two greens for plants, the pot, the pebbles of a cairn, and an accent for fittings. */
type Furnishings = {
  plant: string;
  plant2: string;
  pot: string;
  pebbles: string[];
  accent: string;
};

type Theme = Surfaces & Outlook & Furnishings;

// A theme is one row of each table below, by name; THEMES keeps their order (spa i takes theme i / 4).

const SURFACES = {
  linen: { wall: [C.shell, C.sand], floor: [C.stone, C.shell], reveal: C.stone, revealOp: 1, frame: C.sand, shadow: 0.08 },
  seaGlass: { wall: [C.mist, C.sand], floor: [C.shell, C.stone], reveal: C.sage, revealOp: 0.35, frame: C.sand, shadow: 0.08 },
  rose: { wall: [C.blush, C.shell], floor: [C.shell, C.stone], reveal: C.gold, revealOp: 0.2, frame: C.sand, shadow: 0.08 },
  limestone: { wall: [C.stone, C.shell], floor: [C.sand, C.stone], reveal: C.ink, revealOp: 0.08, frame: C.sand, shadow: 0.09 },
  sage: { wall: [C.sage, C.mist], floor: [C.mist, C.sand], reveal: C.deep, revealOp: 0.16, frame: C.sand, shadow: 0.1 },
  dusk: { wall: [C.deep, C.sea], floor: [C.ink, C.deep], reveal: C.ink, revealOp: 0.35, frame: C.sea, shadow: 0.25 },
} satisfies Record<string, Surfaces>;

type ThemeName = keyof typeof SURFACES;

const OUTLOOKS: Record<ThemeName, Outlook> = {
  linen: { sky: [C.mist, C.sand], sun: C.blush, sea: [C.sage, C.sea], hill: C.sage, light: C.white, lightOp: 0.6 },
  seaGlass: { sky: [C.sand, C.blush], sun: C.gold, sea: [C.mist, C.sage], hill: C.sage, light: C.white, lightOp: 0.7 },
  rose: { sky: [C.mist, C.sand], sun: C.sand, sea: [C.sage, C.sea], hill: C.sea, light: C.white, lightOp: 0.6 },
  limestone: { sky: [C.blush, C.sand], sun: C.gold, sea: [C.mist, C.sea], hill: C.sage, light: C.white, lightOp: 0.6 },
  sage: { sky: [C.sand, C.shell], sun: C.blush, sea: [C.sea, C.deep], hill: C.sage, light: C.white, lightOp: 0.6 },
  dusk: { sky: [C.blush, C.sand], sun: C.gold, sea: [C.sea, C.deep], hill: C.deep, light: C.gold, lightOp: 0.3 },
};

const FURNISHINGS: Record<ThemeName, Furnishings> = {
  linen: { plant: C.sage, plant2: C.sea, pot: C.stone, pebbles: [C.stone, C.sage, C.shell, C.mist], accent: C.gold },
  seaGlass: { plant: C.sea, plant2: C.deep, pot: C.sand, pebbles: [C.stone, C.sand, C.sage, C.shell], accent: C.deep },
  rose: { plant: C.sage, plant2: C.sea, pot: C.shell, pebbles: [C.stone, C.shell, C.blush, C.sage], accent: C.gold },
  limestone: { plant: C.deep, plant2: C.sea, pot: C.sand, pebbles: [C.shell, C.sage, C.sand, C.mist], accent: C.deep },
  sage: { plant: C.deep, plant2: C.sea, pot: C.shell, pebbles: [C.sand, C.stone, C.shell, C.mist], accent: C.gold },
  dusk: { plant: C.sage, plant2: C.mist, pot: C.stone, pebbles: [C.stone, C.sage, C.shell, C.mist], accent: C.gold },
};

const THEMES: Theme[] = (Object.keys(SURFACES) as ThemeName[]).map((name) => ({ ...SURFACES[name], ...OUTLOOKS[name], ...FURNISHINGS[name] }));

type Ctx = { t: Theme; r: Rng; id: string; defs: string[] };

function baseDefs(c: Ctx): void {
  const { t, id } = c;
  c.defs.push(lg(`${id}w`, fromTo(...t.wall)), lg(`${id}f`, fromTo(...t.floor)), lg(`${id}s`, fromTo(...t.sky)), lg(`${id}e`, fromTo(...t.sea)));
}

function room(c: Ctx, fy: number): string {
  return rect(0, 0, 1200, fy, `url(#${c.id}w)`) + rect(0, fy, 1200, 800 - fy, `url(#${c.id}f)`) + rect(0, fy - 3, 1200, 3, C.ink, op(c.t.shadow));
}

/** A row of arched openings: their left edges, the top of the arches and their size. */
type Openings = { xs: number[]; top: number; w: number; h: number };

/** `n` openings `w` wide and `gap` apart, centred on the wall, from `top` down to `bottom`. */
function centredRow(n: number, w: number, gap: number, top: number, bottom: number): Openings & { gap: number } {
  const x0 = 600 - (n * w + (n - 1) * gap) / 2;
  return { xs: Array.from({ length: n }, (_, i) => x0 + i * (w + gap)), top, w, h: bottom - top, gap };
}

/** The openings' arches, each grown by `margin` at the sides and top (a reveal or a frame around them). */
const arches = ({ xs, top, w, h }: Openings, margin = 0): string => xs.map((x) => arch(x - margin, top - margin, w + 2 * margin, h + margin)).join('');

/** A sill under each opening, reaching `overhang` beyond it on either side. */
const sills = ({ xs, top, w, h }: Openings, overhang: number, depth: number, color: string): string =>
  xs.map((x) => rect(x - overhang, top + h, w + 2 * overhang, depth, color, ` rx="3"`)).join('');

/** The sea view seen through the openings (clip `${id}c`), the horizon at `horizon` of their height. */
function view(c: Ctx, o: Openings, horizon: number, palms: number): string {
  const { t, r, id } = c;
  c.defs.push(`<clipPath id="${id}c"><path d="${arches(o)}"/></clipPath>`);
  const x0 = at(o.xs, 0);
  const x1 = at(o.xs, o.xs.length - 1) + o.w;
  const y0 = o.top;
  const hy = o.top + o.h * horizon;
  const y1 = o.top + o.h;
  const sx = r.range(x0 + 60, x1 - 60);
  let s = `<g clip-path="url(#${id}c)">` + rect(x0, y0, x1 - x0, hy - y0, `url(#${id}s)`) + circ(sx, hy - r.range(40, 110), r.range(26, 46), t.sun, op(0.85));
  s += path(ridge(hillPts(r, hy - 14, 10, 5, x0 - 20, x1 + 20), hy + 2), t.hill, op(0.45));
  s += rect(x0, hy, x1 - x0, y1 - hy, `url(#${id}e)`);
  s += line(waterLines(r, x0, x1, hy + 10, y1, 5), C.sand, 2.5, op(0.45));
  for (let i = 0; i < palms; i++) {
    const px = r.range(x0 + 20, x1 - 20);
    const ph = (y1 - y0) * r.range(0.78, 0.95);
    s += palm(px, y1 + 20, ph, ph * r.range(-0.14, 0.14), t.hill === C.deep ? C.ink : C.deep, r, 0.55);
  }
  return s + '</g>';
}

/** Arched windows onto the sea: the recess around them (`reveal` deep), the view and a frame `frame` wide. */
function windows(c: Ctx, o: Openings, look: { reveal: number; frame: number; horizon: number; palms: number }): string {
  const { t } = c;
  return (
    path(arches(o, look.reveal), t.reveal, op(t.revealOp)) +
    view(c, o, look.horizon, look.palms) +
    path(arches(o), 'none', P` stroke="${t.frame}" stroke-width="${look.frame}"`)
  );
}

function pot(x: number, base: number, s: number, color: string, shadowOp: number): string {
  const w = 92 * s;
  const h = 70 * s;
  const y = base - h;
  return (
    ell(x, base, w * 0.6, 9 * s, C.ink, op(shadowOp)) +
    path(
      P`M${x - w / 2} ${y}H${x + w / 2}C${x + w / 2} ${y + h * 0.8} ${x + w * 0.3} ${base} ${x} ${base}C${x - w * 0.3} ${base} ${x - w / 2} ${y + h * 0.8} ${x - w / 2} ${y}Z`,
      color,
    ) +
    rect(x - w / 2 - 3 * s, y - 6 * s, w + 6 * s, 9 * s, color, P` rx="${3 * s}"`) +
    rect(x - w / 2 - 3 * s, y + 3 * s, w + 6 * s, 3 * s, C.ink, op(0.06))
  );
}

function leafyPlant(c: Ctx, x: number, base: number, s: number): string {
  const { t, r } = c;
  const top = base - 76 * s;
  let a = '';
  let b = '';
  for (let i = 0; i < 9; i++) {
    const ang = -160 + i * 17.5 + r.range(-5, 5);
    const l = leaf(x + r.range(-8, 8) * s, top, r.range(120, 210) * s, ang, r.range(26, 36) * s, r.range(0, 20) * s);
    if (i % 2) a += l;
    else b += l;
  }
  return path(b, t.plant2, op(0.9)) + path(a, t.plant) + pot(x, base, s, t.pot, t.shadow);
}

function olive(c: Ctx, x: number, base: number, s: number): string {
  const { t, r } = c;
  const h = 120 * s;
  const top = base - h;
  let stems = '';
  let leaves = '';
  for (let k = 0; k < 4; k++) {
    const ex = x + (k - 1.5) * 70 * s + r.range(-20, 20) * s;
    const ey = top - r.range(170, 250) * s;
    const cx = x + (ex - x) * 0.2;
    stems += P`M${x} ${top + 6}Q${cx} ${(top + ey) / 2} ${ex} ${ey}`;
    for (let j = 1; j <= 6; j++) {
      const u = j / 6.5;
      const px = (1 - u) * (1 - u) * x + 2 * (1 - u) * u * cx + u * u * ex;
      const py = (1 - u) * (1 - u) * (top + 6) + 2 * (1 - u) * u * ((top + ey) / 2) + u * u * ey;
      leaves += leaf(px, py, 30 * s, j % 2 ? -150 : -30, 8 * s);
    }
  }
  const w = 64 * s;
  const vase = P`M${x - 14 * s} ${top}h${28 * s}c0 ${20 * s} ${w / 2} ${30 * s} ${w / 2} ${h * 0.55}c0 ${h * 0.3} ${-14 * s} ${h * 0.45} ${-w / 2} ${h * 0.45}s${-w / 2} ${-h * 0.15} ${-w / 2} ${-h * 0.45}c0 ${-h * 0.3} ${w / 2 - 14 * s} ${-h * 0.3} ${w / 2 - 14 * s} ${-h * 0.55}z`;
  return line(stems, t.plant2, 2.2 * s, op(0.8)) + path(leaves, t.plant) + ell(x, base, w * 0.7, 8 * s, C.ink, op(t.shadow)) + path(vase, t.pot);
}

function cairn(c: Ctx, x: number, base: number, s: number): string {
  const { t, r } = c;
  let out = ell(x, base + 4 * s, 70 * s, 10 * s, C.ink, op(t.shadow));
  let y = base;
  const sizes = [60, 48, 38, 28, 19];
  sizes.forEach((w, i) => {
    const h = w * 0.42 * s;
    out += ell(x + r.range(-6, 6) * s, y - h, w * s, h, at(t.pebbles, i % t.pebbles.length));
    out += ell(x, y - h * 0.35, w * s * 0.9, h * 0.5, C.ink, op(0.04));
    y -= h * 1.85;
  });
  return out;
}

function pebbleRow(c: Ctx, x: number, base: number, s: number): string {
  const { t, r } = c;
  let out = '';
  for (let i = 0; i < 4; i++) {
    const w = r.range(26, 48) * s;
    const px = x + i * 58 * s + r.range(-8, 8);
    out += ell(px, base + 4, w, 7 * s, C.ink, op(t.shadow)) + ell(px, base - w * 0.3, w, w * 0.42, at(t.pebbles, (i + 1) % 4));
  }
  return out;
}

function towels(c: Ctx, x: number, base: number, s: number): string {
  const cols = [C.sand, at(c.t.pebbles, 1), C.shell];
  let out = '';
  for (let i = 0; i < 3; i++) {
    out +=
      rect(x - 60 * s, base - (i + 1) * 24 * s, 120 * s, 22 * s, at(cols, i), P` rx="${10 * s}"`) +
      rect(x - 56 * s, base - i * 24 * s - 8 * s, 112 * s, 6 * s, C.ink, op(0.05));
  }
  return out;
}

function pendant(c: Ctx, x: number, y: number, rr: number): string {
  return (
    circ(x, y + rr, rr * 2.6, `url(#${c.id}g)`) +
    line(P`M${x} 0V${y}`, C.ink, 1.5, op(0.4)) +
    path(P`M${x - rr} ${y + rr}A${rr} ${rr} 0 0 1 ${x + rr} ${y + rr}Z`, c.t.accent)
  );
}

/** Fading light gradient `${id}l`, added once per file. */
function lightDefs(c: Ctx): string {
  const id = `${c.id}l`;
  if (!c.defs.some((d) => d.includes(`"${id}"`))) c.defs.push(lg(id, fade(c.t.light, c.t.lightOp)));
  return `url(#${id})`;
}

function lightPatch(c: Ctx, x: number, w: number, fy: number, skew: number): string {
  lightDefs(c);
  return path(P`M${x + 8} ${fy + 2}H${x + w - 8}L${x + w + skew + 40} 800H${x + skew - 40}Z`, `url(#${c.id}l)`);
}

function standingObject(c: Ctx, kind: number, x: number, base: number, s: number): string {
  switch (kind % 4) {
    case 0:
      return leafyPlant(c, x, base, s);
    case 1:
      return olive(c, x, base, s);
    case 2:
      return cairn(c, x, base, s);
    default:
      return towels(c, x, base, s) + pebbleRow(c, x + 80 * s, base, 0.6 * s);
  }
}

/** One tall arched window with the sea, objects either side. */
function spaGrand(c: Ctx, fy: number): string {
  const { t, r } = c;
  const w = r.range(330, 400);
  const x = 600 - w / 2 + r.range(-80, 80);
  const top = r.range(90, 130);
  const h = fy - 45 - top;
  const o: Openings = { xs: [x], top, w, h };
  let s = windows(c, o, { reveal: 26, frame: 9, horizon: r.range(0.58, 0.7), palms: r.chance(0.4) ? 1 : 0 });
  if (r.chance(0.5)) s += line(P`M${x + w / 2} ${top + 4}V${top + h}M${x} ${top + w / 2}H${x + w}`, t.frame, 5);
  s += sills(o, 34, 14, t.frame) + rect(x - 34, top + h + 14, w + 68, 4, C.ink, op(t.shadow));
  s += lightPatch(c, x, w, fy, r.range(-160, 160));
  const k = r.int(0, 3);
  s += standingObject(c, k, Math.max(150, x - r.range(150, 200)), fy + r.range(70, 110), r.range(0.95, 1.15));
  s += standingObject(c, k + r.int(1, 3), Math.min(1060, x + w + r.range(150, 200)), fy + r.range(80, 130), r.range(0.8, 1));
  return s;
}

/** Colonnade of three arches over a reflecting pool. */
function spaColonnade(c: Ctx, fy: number): string {
  const { t, r, id } = c;
  const o = centredRow(3, r.range(200, 240), r.range(90, 130), r.range(130, 180), fy - 40);
  let s = windows(c, o, { reveal: 18, frame: 7, horizon: 0.62, palms: 2 }) + sills(o, 20, 10, t.frame);
  const py = fy + r.range(55, 75);
  const ph = 800 - py - r.range(40, 70);
  s += rect(90, py, 1020, ph, `url(#${id}e)`, P` rx="10" stroke="${t.frame}" stroke-width="10"`);
  const reflections = o.xs.map((x) => P`M${x + 20} ${py + 12}h${o.w - 40}l${40} ${ph - 24}h${-o.w + 40}z`).join('');
  s += path(reflections, lightDefs(c), op(0.5));
  s += line(waterLines(r, 120, 1080, py + 14, py + ph - 10, 7), C.sand, 2.5, op(0.5));
  s += cairn(c, r.pick([250, 950]), py - 6, 0.6);
  s += leafyPlant(c, 60, fy + 40, 0.7) + leafyPlant(c, 1140, fy + 40, 0.7);
  return s;
}

/** Round mirror over a floating ledge, doorway arch to the side. */
function spaMirror(c: Ctx, fy: number): string {
  const { t, r, id } = c;
  const mx = r.range(380, 460);
  const my = r.range(250, 300);
  const mr = r.range(130, 160);
  const ly = my + mr + r.range(60, 80);
  c.defs.push(lg(`${id}m`, fromTo(t.sky[0], C.sand), 'diagonal'), lg(`${id}d`, fromTo([t.reveal, Math.min(1, t.revealOp * 2.2)], [t.light, t.lightOp * 0.6])));
  let s = circ(mx + 10, my + 14, mr + 8, C.ink, op(t.shadow));
  s += circ(mx, my, mr, `url(#${id}m)`, P` stroke="${t.accent}" stroke-width="5"`);
  s += path(
    P`M${mx - mr * 0.55} ${my + mr * 0.35}L${mx + mr * 0.15} ${my - mr * 0.75}L${mx + mr * 0.45} ${my - mr * 0.5}L${mx - mr * 0.25} ${my + mr * 0.6}Z`,
    C.white,
    op(0.35),
  );
  const lx = mx - 230;
  s += rect(lx, ly + 18, 460, 10, C.ink, op(t.shadow * 1.4)) + rect(lx, ly, 460, 20, t.floor[0], ` rx="4"`) + rect(lx, ly, 460, 5, C.white, op(0.35));
  s += olive(c, mx - 130, ly, 0.85) + towels(c, mx + 80, ly, 0.9) + pebbleRow(c, mx + 150, ly, 0.5);
  const dx = r.range(780, 840);
  const dw = r.range(200, 230);
  const dt = r.range(150, 200);
  const door: Openings = { xs: [dx], top: dt, w: dw, h: fy - dt };
  s += path(arches(door, 34), t.reveal, op(t.revealOp)) + path(arches(door, 12), t.frame) + path(arches(door), `url(#${id}d)`);
  s += lightPatch(c, dx, dw, fy, r.range(-120, 120));
  s += standingObject(c, r.pick([0, 2]), r.range(1080, 1110), fy + 120, 0.95);
  return s;
}

/** Pool hall, two windows with palms, hanging pendants. */
function spaPool(c: Ctx, fy: number): string {
  const { t, r, id } = c;
  const o = centredRow(2, r.range(230, 280), r.range(120, 200), r.range(110, 150), fy - 30);
  let s = windows(c, o, { reveal: 20, frame: 8, horizon: 0.68, palms: 3 }) + sills(o, 26, 12, t.frame);
  c.defs.push(rg(`${id}g`, fade(t.light, 0.5)));
  const py = fy + 40;
  s += rect(0, fy, 1200, 40, t.frame) + rect(0, py, 1200, 800 - py, `url(#${id}e)`) + rect(0, py, 1200, 6, C.ink, op(0.1));
  const reflections = o.xs.map((x) => P`M${x} ${py + 10}h${o.w}l30 ${800 - py}h${-o.w}z`).join('');
  s += path(reflections, lightDefs(c), op(0.55));
  s += line(waterLines(r, 20, 1180, py + 20, 790, 9), C.sand, 3, op(0.45));
  s += cairn(c, r.pick([120, 1080]), fy + 30, 0.8);
  const n = r.int(2, 3);
  for (let i = 0; i < n; i++) s += pendant(c, 600 + (i - (n - 1) / 2) * o.gap * 1.7, r.range(70, 120), 26);
  return s;
}

/** The four rooms: each picks its floor line from `floor` (the first draw of its random sequence) and draws in front of the walls. */
const SPA_LAYOUTS: { title: string; floor: [number, number]; draw: (c: Ctx, fy: number) => string }[] = [
  { title: 'sunlit arch window', floor: [570, 610], draw: spaGrand },
  { title: 'arched colonnade and reflecting pool', floor: [540, 575], draw: spaColonnade },
  { title: 'round mirror and stone ledge', floor: [580, 620], draw: spaMirror },
  { title: 'calm pool hall with palms', floor: [440, 480], draw: spaPool },
];

function spa(i: number): string {
  const t = at(THEMES, Math.floor(i / 4));
  const layout = at(SPA_LAYOUTS, (i + Math.floor(i / 4)) % 4);
  const r = rng(1000 + i * 7919);
  const id = `s${i + 1}`;
  const c: Ctx = { t, r, id, defs: [] };
  baseDefs(c);
  const fy = r.range(...layout.floor);
  let body = room(c, fy) + layout.draw(c, fy);
  if (r.chance(0.5)) body = `<g transform="matrix(-1 0 0 1 1200 0)">${body}</g>`;
  return svgDoc(1200, 800, `Spa interior illustration: ${layout.title}`, c.defs.join(''), body);
}

// ---------------------------------------------------------------- cities (1200x800)
function sky(id: string, s: Stop[]): string {
  return lg(`${id}k`, s);
}
function sunHalo(id: string, color: string, o = 0.45): string {
  return rg(`${id}h`, fade(color, o));
}

type Sun = { x: number; y: number; halo: number; r: number; color: string; opacity?: number };

/** The sky (gradient `${id}k`) down to `height`, and the sun in its halo (gradient `${id}h`). */
function skyAndSun(id: string, height: number, { x, y, halo, r, color, opacity = 1 }: Sun): string {
  return rect(0, 0, 1200, height, `url(#${id}k)`) + circ(x, y, halo, `url(#${id}h)`) + circ(x, y, r, color, op(opacity));
}

function sailboat(x: number, y: number, s: number, hull: string, sail: string, sail2: string): string {
  const w = 70 * s;
  const mh = 90 * s;
  return (
    path(P`M${x - w / 2} ${y}H${x + w / 2}L${x + w * 0.36} ${y + 12 * s}H${x - w * 0.36}Z`, hull) +
    path(P`M${x} ${y - mh}L${x + w * 0.42} ${y - 6 * s}H${x}ZM${x - 4 * s} ${y - mh * 0.82}L${x - 4 * s} ${y - 6 * s}H${x - w * 0.4}Z`, sail) +
    line(P`M${x} ${y - mh}V${y}`, sail2, 2 * s) +
    line(P`M${x - w * 0.4} ${y + 20 * s}h${w * 0.8}M${x - w * 0.25} ${y + 28 * s}h${w * 0.5}`, sail2, 2, op(0.25))
  );
}

function newportBeach(id: string, r: Rng): [string, string] {
  const defs = sky(id, fromTo(C.mist, C.sand)) + sunHalo(id, C.gold, 0.35) + lg(`${id}w`, through(C.mist, [0.45, C.sage], C.sea));
  let houses = '';
  for (let x = 380; x < 1180; x += r.range(26, 44)) {
    const w = r.range(14, 24);
    const h = r.range(10, 22);
    houses += P`M${x} 468v${-h}h${w}v${h}z`;
  }
  let b =
    skyAndSun(id, 470, { x: 860, y: 230, halo: 220, r: 62, color: C.sand, opacity: 0.9 }) +
    path(
      ridge(
        [
          [-40, 400],
          [180, 370],
          [420, 410],
          [700, 380],
          [950, 405],
          [1240, 380],
        ],
        472,
      ),
      C.sage,
      op(0.5),
    ) +
    path(
      ridge(
        [
          [340, 470],
          [600, 452],
          [900, 458],
          [1240, 448],
        ],
        474,
      ),
      C.stone,
    ) +
    path(houses, C.shell) +
    rect(0, 470, 1200, 330, `url(#${id}w)`) +
    line(waterLines(r, 0, 1200, 490, 780, 14), C.sand, 3, op(0.5));
  b +=
    sailboat(240, 560, 0.9, C.sand, C.white, C.ink) +
    sailboat(520, 520, 0.6, C.deep, C.sand, C.ink) +
    sailboat(760, 610, 1.2, C.sand, C.white, C.ink) +
    sailboat(1010, 535, 0.7, C.sand, C.shell, C.ink);
  let pil = '';
  for (let x = 30; x < 440; x += 58) pil += P`M${x} 700v46`;
  b += line(pil, C.deep, 8, op(0.8)) + rect(-10, 690, 460, 14, C.stone, ` rx="3"`) + rect(-10, 704, 460, 4, C.ink, op(0.15));
  b += sailboat(560, 720, 1.4, C.white, C.sand, C.ink);
  return [defs, b];
}

function irvine(id: string, r: Rng): [string, string] {
  const defs = sky(id, fromTo(C.blush, C.sand)) + sunHalo(id, C.gold, 0.3) + lg(`${id}g`, fromTo(C.mist, C.sage));
  let b =
    skyAndSun(id, 800, { x: 300, y: 220, halo: 190, r: 55, color: C.sand }) +
    path(ridge(hillPts(r, 390, 30, 6), 620), C.sage, op(0.45)) +
    path(ridge(hillPts(r, 460, 28, 5), 620), C.sage, op(0.75)) +
    path(ridge(hillPts(r, 530, 20, 4), 620), C.sea, op(0.45));
  const blds: [number, number, number, string][] = [
    [140, 230, 110, C.shell],
    [390, 170, 190, C.sand],
    [575, 280, 120, C.stone],
    [880, 210, 160, C.shell],
  ];
  let bands = '';
  for (const [x, w, h, col] of blds) {
    b += rect(x, 610 - h, w, h, col) + rect(x - 6, 610 - h - 8, w + 12, 8, C.deep, op(0.75));
    for (let y = 610 - h + 22; y < 600; y += 26) bands += P`M${x + 14} ${y}h${w - 28}`;
  }
  b += line(bands, C.sea, 8, op(0.35), 'butt');
  let trees = '';
  let trunks = '';
  for (const x of [90, 370, 560, 860, 1110, 1160]) {
    const rr = r.range(26, 40);
    trees += dot(x, 600 - rr * 1.6, rr);
    trunks += P`M${x} 612v${-rr}`;
  }
  b += line(trunks, C.deep, 5, op(0.6)) + path(trees, C.deep, op(0.7));
  b +=
    rect(0, 608, 1200, 192, `url(#${id}g)`) +
    path(P`M-20 800C300 660 700 700 1220 640V800Z`, C.sage, op(0.55)) +
    path(P`M560 800C640 720 760 690 940 650`, 'none', P` stroke="${C.sand}" stroke-width="18" stroke-linecap="round"`);
  return [defs, b];
}

function costaMesa(id: string): [string, string] {
  const defs = sky(id, fromTo(C.shell, C.sand)) + lg(`${id}g`, fromTo(C.stone, C.shell)) + sunHalo(id, C.gold, 0.3);
  let b = skyAndSun(id, 800, { x: 820, y: 220, halo: 240, r: 90, color: C.gold, opacity: 0.35 });
  let wins = '';
  for (let x = 80; x < 1120; x += 60) wins += P`M${x} 488v60`;
  b += rect(40, 460, 1120, 120, C.stone) + rect(40, 452, 1120, 10, C.sea, op(0.5)) + line(wins, C.sand, 14, '', 'butt');
  b += rect(0, 580, 1200, 220, `url(#${id}g)`);
  let grid = '';
  for (let i = -6; i <= 6; i++) grid += P`M${600 + i * 60} 580L${600 + i * 190} 800`;
  grid += 'M0 640H1200M0 715H1200';
  b += line(grid, C.sand, 3, op(0.9));
  b += path(P`M80 640A140 140 0 0 1 360 640Z`, C.blush);
  b += circ(470, 470, 120, 'none', P` stroke="${C.deep}" stroke-width="24"`) + rect(430, 586, 80, 24, C.ink, op(0.7));
  b += path(P`M690 640L810 330L930 640Z`, C.sea) + path(P`M780 640L880 440L980 640Z`, C.sage, op(0.9));
  b += rect(1020, 290, 56, 350, C.blush) + rect(1020, 290, 56, 14, C.gold);
  b += ell(620, 720, 170, 26, C.mist) + line(P`M520 718h120M600 728h90`, C.white, 3, op(0.8));
  b += path(sparkle(1048, 240, 14), C.gold, op(0.7));
  return [defs, b];
}

function huntingtonBeach(id: string, r: Rng): [string, string] {
  const defs =
    sky(id, through(C.blush, [0.7, C.sand], C.shell)) +
    sunHalo(id, C.gold, 0.45) +
    lg(`${id}w`, fromTo(C.sage, C.sea)) +
    lg(`${id}b`, fromTo(C.stone, C.shell));
  let b = skyAndSun(id, 440, { x: 830, y: 380, halo: 260, r: 70, color: C.gold, opacity: 0.55 }) + rect(0, 430, 1200, 370, `url(#${id}w)`);
  let glint = '';
  for (let i = 0; i < 8; i++) glint += P`M${830 - 60 + i * 4 + r.range(-10, 10)} ${450 + i * 16}h${120 - i * 8}`;
  b += line(glint, C.gold, 4, op(0.35));
  let pil = '';
  for (let x = 10; x < 900; x += 34) pil += P`M${x} 418v${44 + (900 - x) * 0.01}`;
  b += line(pil, C.deep, 5, op(0.75), 'butt') + rect(-10, 404, 920, 12, C.deep);
  b += rect(850, 372, 76, 32, C.deep) + path('M842 374l46-16 46 16z', C.deep) + line('M120 404v-22M330 404v-22M540 404v-22M750 404v-22', C.deep, 3);
  b += path(waveBand(560, 10, 240, 0, 800), C.sea, op(0.35));
  b += path(waveBand(620, 12, 300, 60, 800), C.mist, op(0.7));
  b += path(waveBand(660, 9, 340, 20, 800), C.sand, op(0.9));
  b += path(P`M-20 690C300 670 800 700 1220 676V800H-20Z`, `url(#${id}b)`);
  b += line(P`M80 680q60-8 120 0M760 688q50-6 100 0`, C.white, 3, op(0.8));
  return [defs, b];
}

function lagunaBeach(id: string, r: Rng): [string, string] {
  const defs =
    sky(id, fromTo(C.mist, C.sand)) +
    lg(`${id}w`, fromTo(C.sage, C.sea)) +
    lg(`${id}c`, fromTo(C.stone, [C.gold, 0.6])) +
    sunHalo(id, C.gold, 0.35) +
    lg(`${id}b`, fromTo(C.shell, C.stone));
  let b = skyAndSun(id, 400, { x: 600, y: 200, halo: 200, r: 50, color: C.sand }) + rect(0, 390, 1200, 410, `url(#${id}w)`);
  b += line(waterLines(r, 380, 820, 405, 560, 8), C.sand, 3, op(0.55));
  const left = 'M-20 290C110 280 250 305 320 360C370 400 390 450 440 486C390 560 300 640 190 720H-20Z';
  const right = 'M1220 240C1070 240 950 290 890 360C850 410 830 470 780 520C840 590 960 650 1060 720H1220Z';
  b += path(left + right, C.stone) + path(left + right, `url(#${id}c)`);
  b += line(
    'M40 420C160 420 260 450 330 500M20 520C120 520 220 550 290 600M1180 380C1060 390 960 430 900 480M1190 480C1090 500 1000 540 940 590',
    C.gold,
    3,
    op(0.25),
  );
  b += path('M-20 290C110 280 250 305 320 360C345 380 362 402 376 428C320 380 200 330 -20 330Z', C.sage);
  b += path('M1220 240C1070 240 950 290 890 360C872 382 858 404 846 428C900 360 1040 290 1220 286Z', C.sage);
  b += path('M1022 272v-20h40v20z', C.sand) + path('M1016 254l26-16 26 16z', C.gold, op(0.6));
  b += path('M452 500q14-18 34-12q12 5 14 14zM740 530q16-20 40-14q14 6 16 16zM620 470q8-10 20-7q8 3 8 9z', C.deep, op(0.5));
  b += path('M-20 800V716C200 690 420 724 600 716C800 706 1000 690 1220 704V800Z', `url(#${id}b)`);
  b += line('M230 704C340 700 460 712 600 704C760 695 880 690 990 692', C.white, 5, op(0.9));
  b += line('M420 640q50-8 100 0M640 610q50-8 100 0M560 664q40-6 80 0', C.white, 3, op(0.6));
  return [defs, b];
}

function danaPoint(id: string, r: Rng): [string, string] {
  const defs =
    sky(id, through(C.mist, [0.6, C.blush], C.sand)) +
    lg(`${id}w`, fromTo(C.sage, C.deep)) +
    lg(`${id}c`, fromTo(C.stone, [C.gold, 0.7])) +
    sunHalo(id, C.gold, 0.4) +
    lg(`${id}l`, fromTo([C.gold, 0], [C.gold, 0.35]), 'across');
  let b = skyAndSun(id, 450, { x: 280, y: 300, halo: 200, r: 60, color: C.sand }) + rect(0, 440, 1200, 360, `url(#${id}w)`);
  b += line(waterLines(r, 0, 760, 460, 780, 12), C.sand, 3, op(0.45));
  const top = 'M1220 240C1100 240 1010 280 950 330C880 390 760 440 620 452';
  const foot = 'C800 482 1000 480 1220 488';
  const cliff = top + 'L598 466' + foot + 'Z';
  b += path(cliff, C.stone) + path(cliff, `url(#${id}c)`);
  b += path(top + 'C760 446 880 420 960 385C1040 345 1120 305 1220 300Z', C.sage);
  b += path('M598 466' + foot + 'V540C1000 530 800 504 598 466Z', C.deep, op(0.22));
  b += path('M1066 161L800 118V204Z', `url(#${id}l)`);
  b += path('M1050 276L1057 176H1075L1082 276Z', C.white) + line('M1054 246h24M1056 212h20', C.blush, 9, '', 'butt');
  b += rect(1049, 170, 34, 8, C.deep) + rect(1056, 152, 20, 18, C.gold) + path('M1052 154L1066 140L1080 154Z', C.deep);
  b += sailboat(500, 560, 0.8, C.sand, C.white, C.ink) + sailboat(150, 480, 0.4, C.sand, C.white, C.ink);
  b += line('M420 150q10-9 20 0q10-9 20 0M480 190q7-6 14 0q7-6 14 0', C.ink, 2.5, op(0.45));
  return [defs, b];
}

function missionViejo(id: string, r: Rng): [string, string] {
  const defs = sky(id, fromTo(C.sand, C.mist)) + lg(`${id}w`, fromTo(C.mist, [C.sea, 0.7])) + sunHalo(id, C.gold, 0.3);
  let b = skyAndSun(id, 800, { x: 760, y: 240, halo: 200, r: 56, color: C.sand });
  b += path(ridge(hillPts(r, 380, 36, 6), 600), C.sage, op(0.45));
  b += path(ridge(hillPts(r, 440, 24, 5), 600), C.sage, op(0.75));
  b += path('M-20 480C300 470 900 470 1220 480V720C900 700 300 700 -20 720Z', `url(#${id}w)`);
  b += line(waterLines(r, 140, 1060, 495, 690, 11), C.white, 3, op(0.55));
  b += path('M-20 430C120 420 260 470 380 520C300 560 140 560 -20 560Z', C.sea, op(0.7));
  b += path('M1220 410C1080 410 930 460 800 520C900 560 1080 560 1220 556Z', C.deep, op(0.6));
  let trees = '';
  for (let i = 0; i < 9; i++) {
    const left = i < 4;
    const x = left ? 20 + i * 55 + r.range(-10, 10) : 860 + (i - 4) * 70 + r.range(-10, 10);
    const y = left ? 450 + i * 14 : 520 - (i - 4) * 18;
    const h = r.range(40, 70);
    trees += P`M${x} ${y - h}C${x + h * 0.35} ${y - h * 0.5} ${x + h * 0.3} ${y} ${x} ${y}C${x - h * 0.3} ${y} ${x - h * 0.35} ${y - h * 0.5} ${x} ${y - h}Z`;
  }
  b += path(trees, C.deep, op(0.8));
  b += path(P`M560 600h70l-10 10h-50z`, C.sand) + path('M596 600V560l24 36z', C.white);
  b += path('M-20 700C300 690 800 720 1220 690V800H-20Z', C.sage) + path('M-20 750C400 730 800 760 1220 740V800H-20Z', C.sea, op(0.5));
  return [defs, b];
}

function anaheim(id: string, r: Rng): [string, string] {
  const defs =
    sky(id, [
      [0, C.blush],
      [0.75, C.sand],
    ]) +
    sunHalo(id, C.gold, 0.5) +
    lg(`${id}n`, fromTo(C.sage, C.sea));
  let b = skyAndSun(id, 800, { x: 780, y: 420, halo: 260, r: 72, color: C.gold, opacity: 0.7 });
  b += path(
    ridge(
      [
        [-40, 420],
        [200, 370],
        [480, 430],
        [760, 400],
        [1000, 350],
        [1240, 410],
      ],
      800,
    ),
    C.gold,
    op(0.3),
  );
  b += path(
    ridge(
      [
        [-40, 500],
        [260, 450],
        [560, 520],
        [860, 470],
        [1240, 500],
      ],
      800,
    ),
    C.gold,
    op(0.5),
  );
  b += path(
    ridge(
      [
        [-40, 600],
        [300, 560],
        [700, 610],
        [1000, 570],
        [1240, 590],
      ],
      800,
    ),
    `url(#${id}n)`,
    op(0.85),
  );
  let city = '';
  let lights = '';
  for (let x = -10; x < 1210;) {
    const w = r.range(34, 72);
    const h = 40 + 130 * Math.exp(-(((x - 620) / 260) ** 2)) + r.range(0, 45);
    city += P`M${x} 800V${800 - h}h${w}V800z`;
    for (let y = 800 - h + 12; y < 785; y += 18) for (let lx = x + 9; lx < x + w - 12; lx += 14) if (r.chance(0.3)) lights += P`M${lx} ${y}h5v6h-5z`;
    x += w + r.range(3, 12);
  }
  b += path(city, C.deep) + path(lights, C.gold);
  let road = '';
  for (let x = 20; x < 1200; x += 36) road += dot(x, 640 - Math.sin(x / 200) * 10, 2.6);
  b += path(road, C.sand, op(0.85));
  b += line('M360 200q10-9 20 0q10-9 20 0M430 240q7-6 14 0q7-6 14 0', C.ink, 2.5, op(0.35));
  return [defs, b];
}

const CITIES: Record<string, { title: string; draw: (id: string, r: Rng) => [string, string] }> = {
  'newport-beach': { title: 'Newport Beach harbor with sailboats', draw: newportBeach },
  irvine: { title: 'Irvine low modern buildings and rolling hills', draw: irvine },
  'costa-mesa': { title: 'Costa Mesa arts plaza with geometric sculptures', draw: costaMesa },
  'huntington-beach': { title: 'Huntington Beach pier over gentle waves', draw: huntingtonBeach },
  'laguna-beach': { title: 'Laguna Beach cove between sandstone cliffs', draw: lagunaBeach },
  'dana-point': { title: 'Dana Point headland with a lighthouse', draw: danaPoint },
  'mission-viejo': { title: 'Mission Viejo lake framed by soft hills', draw: missionViejo },
  anaheim: { title: 'Anaheim warm hills and evening city lights', draw: anaheim },
};

// ---------------------------------------------------------------- offers (800x600)
type OfferPalette = { bg: readonly [string, string]; a1: string; a2: string; a3: string; dots: string[] };
const OFFER_PALETTES: OfferPalette[] = [
  { bg: [C.blush, C.sand], a1: C.gold, a2: C.sea, a3: C.shell, dots: [C.gold, C.sea, C.sand] },
  { bg: [C.mist, C.sand], a1: C.sea, a2: C.gold, a3: C.blush, dots: [C.sea, C.gold, C.blush] },
  { bg: [C.shell, C.stone], a1: C.deep, a2: C.sage, a3: C.blush, dots: [C.sage, C.gold, C.deep] },
  { bg: [C.deep, C.ink], a1: C.gold, a2: C.sage, a3: C.sea, dots: [C.gold, C.blush, C.mist] },
];

function confetti(r: Rng, cols: string[], n: number): string {
  const byCol: string[] = cols.map(() => '');
  const bars: string[] = cols.map(() => '');
  for (let i = 0; i < n; i++) {
    const x = r.range(30, 770);
    const y = r.range(90, 510);
    if (Math.hypot(x - 400, y - 300) < 170) continue;
    const k = i % cols.length;
    if (r.chance(0.6)) byCol[k] += dot(x, y, r.range(3, 7));
    else {
      const a = r.range(0, Math.PI);
      bars[k] += P`M${x} ${y}l${Math.cos(a) * 14} ${Math.sin(a) * 14}`;
    }
  }
  return cols.map((col, k) => (byCol[k] ? path(byCol[k], col, op(0.75)) : '') + (bars[k] ? line(bars[k], col, 4, op(0.7)) : '')).join('');
}

function sparkles(r: Rng, color: string, n: number, keepOut: number): string {
  let d = '';
  for (let i = 0, tries = 0; i < n && tries < 60; tries++) {
    const x = r.range(60, 740);
    const y = r.range(100, 500);
    if (Math.hypot(x - 400, y - 290) < keepOut) continue;
    d += sparkle(x, y, r.range(8, 26));
    i++;
  }
  return path(d, color, op(0.85));
}

function offer(i: number): string {
  const p = at(OFFER_PALETTES, Math.floor(i / 3));
  const kind = i % 3;
  const r = rng(5000 + i * 104729);
  const id = `o${i + 1}`;
  const dark = p.bg[0] === C.deep;
  const defs = lg(`${id}b`, fromTo(...p.bg), 'diagonal') + lg(`${id}r`, through([p.a1, 0.45], [0.5, p.a1], [p.a1, 0.6]), 'across');
  let b = rect(0, 0, 800, 600, `url(#${id}b)`);
  const soft = dark ? 0.12 : 0.55;
  if (kind === 0) {
    const y0 = r.range(300, 380);
    const y1 = r.range(220, 300);
    b += circ(r.range(420, 560), r.range(220, 300), 210, dark ? p.a3 : C.white, op(soft));
    b += line(P`M-60 ${y0}C180 ${y0 - 180} 420 ${y0 + 190} 860 ${y1}`, `url(#${id}r)`, 54, op(0.85));
    b += line(P`M-60 ${y0 + 90}C220 ${y0 - 40} 460 ${y0 + 250} 860 ${y1 + 110}`, p.a3, 18, op(0.8));
    b += line(P`M-60 ${y0 - 80}C240 ${y0 - 230} 520 ${y0 + 40} 860 ${y1 - 120}`, p.a2, 3, op(0.6));
    b += confetti(r, p.dots, 26) + sparkles(r, p.a1, 5, 0);
  } else if (kind === 1) {
    const cx = r.range(440, 540);
    const cy = r.range(260, 320);
    b += circ(cx - 180, cy + 60, 170, p.a2, op(dark ? 0.3 : 0.22)) + circ(cx + 60, cy - 110, 110, p.a3, op(dark ? 0.35 : 0.7));
    let rings = '';
    for (const rr of [60, 110, 160, 210, 260]) rings += dot(cx, cy, rr);
    b += path(rings, 'none', P` stroke="${p.a1}" stroke-width="2"${op(0.4)}`);
    b += circ(cx, cy, 40, p.a1, op(0.85)) + path(sparkle(cx, cy, 24), dark ? C.ink : C.sand);
    b += confetti(r, p.dots, 28) + sparkles(r, p.a1, 4, 90);
  } else {
    const cx = 400;
    const cy = 270;
    let rays = '';
    for (let k = 0; k < 32; k++) {
      const a = (k / 32) * Math.PI * 2;
      rays += P`M${cx + Math.cos(a) * 150} ${cy + Math.sin(a) * 150}L${cx + Math.cos(a) * 250} ${cy + Math.sin(a) * 250}`;
    }
    b += line(rays, p.a1, 2, op(0.3));
    b += path(
      P`M${cx - 60} ${cy + 70}L${cx - 95} ${cy + 215}L${cx - 62} ${cy + 195}L${cx - 40} ${cy + 228}L${cx - 12} ${cy + 90}ZM${cx + 60} ${cy + 70}L${cx + 95} ${cy + 215}L${cx + 62} ${cy + 195}L${cx + 40} ${cy + 228}L${cx + 12} ${cy + 90}Z`,
      p.a2,
      op(0.9),
    );
    let ros = '';
    const n = 36;
    for (let k = 0; k <= n; k++) {
      const a = (k / n) * Math.PI * 2;
      const rr = k % 2 ? 108 : 116;
      ros += (k ? 'L' : 'M') + P`${cx + Math.cos(a) * rr} ${cy + Math.sin(a) * rr}`;
    }
    b += path(ros + 'Z', p.a1) + circ(cx, cy, 86, p.bg[0]) + circ(cx, cy, 74, 'none', P` stroke="${p.a1}" stroke-width="2"`) + path(sparkle(cx, cy, 34), p.a1);
    b += confetti(r, p.dots, 22) + sparkles(r, p.a1, 4, 240);
  }
  const kinds = ['flowing ribbons', 'soft circles', 'celebration rosette'];
  return svgDoc(800, 600, `Special offer illustration: ${kinds[kind]}`, defs, b);
}

// ---------------------------------------------------------------- logo, favicon, default, avatar
const MARK =
  `<path class="m" d="M8.5 34.5V19.5a11.5 11.5 0 0 1 23 0v15" fill="none" stroke="${C.deep}" stroke-width="3.4" stroke-linecap="round"/>` +
  `<circle cx="20" cy="20.5" r="5.2" fill="${C.gold}"/>` +
  `<path class="m" d="M12.5 29.5q3.75-3 7.5 0t7.5 0" fill="none" stroke="${C.deep}" stroke-width="2.8" stroke-linecap="round" stroke-linejoin="round"/>`;

function logo(): string {
  return svgDoc(40, 40, 'Coastal med spa mark', '', MARK);
}

function favicon(): string {
  const style = `<style>@media (prefers-color-scheme:dark){.m{stroke:${C.mist}}}</style>`;
  return svgDoc(32, 32, 'Coastal med spa', style, MARK, '0 0 40 40');
}

function defaultImage(): string {
  const defs = lg('db', fromTo(C.sand, C.stone), 'diagonal') + rg('dh', fade(C.white, 0.7));
  const body =
    rect(0, 0, 800, 600, 'url(#db)') +
    circ(400, 300, 180, 'url(#dh)') +
    path(sparkle(400, 300, 26), C.gold, op(0.45)) +
    path(sparkle(432, 270, 8), C.gold, op(0.35));
  return svgDoc(800, 600, 'Image unavailable', defs, body);
}

function avatar(): string {
  const defs = `<clipPath id="av"><circle cx="32" cy="32" r="32"/></clipPath>`;
  const body =
    `<g clip-path="url(#av)">` + rect(0, 0, 64, 64, C.stone) + circ(32, 25, 11, C.sand) + path('M10 64c1-13 10-21 22-21s21 8 22 21z', C.sand) + `</g>`;
  return svgDoc(64, 64, 'Profile picture placeholder', defs, body);
}

// ---------------------------------------------------------------- main
CATS.forEach((k, i) => {
  write(`images/icons/${k}.svg`, icon(k));
  write(`images/fallback/${k}.svg`, fallback(k, 300 + i));
});
precision(0);
for (let i = 0; i < 24; i++) write(`images/spas/spa-${String(i + 1).padStart(2, '0')}.svg`, spa(i));
Object.entries(CITIES).forEach(([slug, { title, draw }], i) => {
  const [defs, body] = draw(`c${i + 1}`, rng(9000 + i * 31));
  write(`images/cities/${slug}.svg`, svgDoc(1200, 800, title, defs, body));
});
for (let i = 0; i < 12; i++) write(`images/offers/offer-${String(i + 1).padStart(2, '0')}.svg`, offer(i));
precision(1);
write('images/logo.svg', logo());
write('favicon.svg', favicon());
write('images/default.svg', defaultImage());
write('images/placeholder-avatar.svg', avatar());

let over = 0;
for (const { rel, bytes } of written) {
  const flag = bytes >= MAX_BYTES ? '  <-- over 6 KB' : '';
  if (flag) over++;
  log.info(`${String(bytes).padStart(6)}  public/${rel}${flag}`);
}
log.info(`${written.length} files written to public/`);
if (over) {
  console.error(`${over} file(s) exceed ${MAX_BYTES} bytes`);
  process.exitCode = 1;
}
