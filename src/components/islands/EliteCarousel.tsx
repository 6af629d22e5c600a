import { useEffect, useId, useState } from 'react';

export interface EliteSlide {
  id: number;
  name: string;
  slug: string;
  cityName: string;
  summary: string;
  imageUrl: string;
  verified: boolean;
}

interface Props {
  slides: EliteSlide[];
  /** Auto-advance interval (spec 9: 5000 ms). */
  interval?: number;
}

const prefersReducedMotion = () => typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

// The home page's Elite spotlight (spec 4, Elite carousel): advances every 5 s
// while there is more than one Elite spa; any click on next, previous or a dot
// stops it for good. It also waits while keyboard focus is inside it, and never
// moves by itself for visitors who ask for reduced motion.
export default function EliteCarousel({ slides, interval = 5000 }: Props) {
  const [index, setIndex] = useState(0);
  const [stopped, setStopped] = useState(false);
  const [focused, setFocused] = useState(false);
  const [reducedMotion, setReducedMotion] = useState(false);
  const id = useId();
  const count = slides.length;
  const rotating = count > 1 && !stopped && !focused && !reducedMotion;

  useEffect(() => setReducedMotion(prefersReducedMotion()), []);

  useEffect(() => {
    if (!rotating) return;
    const timer = window.setInterval(() => setIndex((i) => (i + 1) % count), interval);
    return () => window.clearInterval(timer);
  }, [rotating, count, interval]);

  if (count === 0) return null;

  const go = (next: number) => {
    setStopped(true);
    setIndex(((next % count) + count) % count);
  };

  return (
    <section
      aria-roledescription="carousel"
      aria-label="Featured Elite spas"
      className="relative"
      data-rotating={rotating ? 'true' : 'false'}
      onFocus={(event) => {
        // Only keyboard focus pauses; a click on a control stops rotation anyway.
        if ((event.target as HTMLElement).matches(':focus-visible')) setFocused(true);
      }}
      onBlur={(event) => {
        if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(false);
      }}
    >
      <div id={`${id}-slides`} aria-live={rotating ? 'off' : 'polite'} className="card overflow-hidden">
        {slides.map((slide, i) => (
          <div
            key={slide.id}
            role="group"
            aria-roledescription="slide"
            aria-label={`${i + 1} of ${count}`}
            hidden={i !== index}
            data-slide={i}
            className="grid md:grid-cols-2"
          >
            {/* Lazy, the first slide too: the carousel is below the first screen at a phone's
                and a laptop's height, and an eager picture there was fetched at once, beside
                the stylesheet (decision 0032). */}
            <img
              src={slide.imageUrl}
              alt=""
              width={1200}
              height={800}
              loading="lazy"
              className="aspect-[3/2] h-full w-full object-cover"
              onError={(event) => {
                const img = event.currentTarget;
                if (!img.src.endsWith('/images/default.svg')) img.src = '/images/default.svg';
              }}
            />
            <div className="flex flex-col justify-center gap-4 p-6 sm:p-10">
              <div className="flex flex-wrap items-center gap-2">
                <span className="badge-elite">ELITE</span>
                {slide.verified && <span className="badge-accent">Verified</span>}
                <span className="text-sm text-ink-muted">{slide.cityName}</span>
              </div>
              <h3 className="font-serif text-3xl text-ink">{slide.name}</h3>
              <p className="text-ink-muted">{slide.summary}</p>
              <div>
                <a href={`/spas/${slide.slug}`} className="btn-primary">
                  View Spa<span className="sr-only">: {slide.name}</span>
                </a>
              </div>
            </div>
          </div>
        ))}
      </div>
      {count > 1 && (
        <div className="mt-5 flex items-center justify-center gap-x-3">
          <button type="button" className="btn-ghost" aria-controls={`${id}-slides`} onClick={() => go(index - 1)}>
            <span aria-hidden="true">←</span> Previous<span className="sr-only"> spa</span>
          </button>
          {/* On a phone a dot per spa would wrap onto rows of their own (issue 26): the place in words instead. */}
          <span className="min-w-16 text-center text-sm text-ink-muted tabular-nums md:hidden" data-slide-count>
            {index + 1} of {count}
          </span>
          <div className="hidden flex-wrap items-center justify-center gap-1 md:flex">
            {slides.map((slide, i) => (
              <button
                key={slide.id}
                type="button"
                className="grid size-8 place-items-center rounded-full"
                aria-controls={`${id}-slides`}
                aria-label={`Show spa ${i + 1}: ${slide.name}`}
                aria-current={i === index ? 'true' : undefined}
                onClick={() => go(i)}
              >
                <span aria-hidden="true" className={`block size-2.5 rounded-full ${i === index ? 'bg-brand-700' : 'bg-stone-dark'}`} />
              </button>
            ))}
          </div>
          <button type="button" className="btn-ghost" aria-controls={`${id}-slides`} onClick={() => go(index + 1)}>
            Next<span className="sr-only"> spa</span> <span aria-hidden="true">→</span>
          </button>
        </div>
      )}
    </section>
  );
}
