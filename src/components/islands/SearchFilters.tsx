import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { ALL_CITIES, ALL_SERVICES, searchUrl } from '#lib/search-url.ts';
import { SelectField } from './field-errors.tsx';

interface Option {
  value: string;
  label: string;
}

const SORT_OPTIONS: Option[] = [
  { value: '', label: 'Recommended' },
  { value: 'next', label: 'Next available' },
];

const TRUST_OPTIONS: Option[] = [
  { value: '', label: 'Any listing' },
  { value: 'director', label: 'Medical director listed' },
  { value: 'checked', label: 'Licences checked' },
];

interface Props {
  treatments: Option[];
  cities: Option[];
  service?: string;
  city?: string;
  /** Who treats you: 'director' (a medical director listed) or 'checked' (licences checked). */
  trust?: string;
  /** Open times (issue 24): 'week' keeps spas with an open time in the next 7 days; sort 'next' puts the soonest first. */
  available?: string;
  sort?: string;
  /** The page path the results live on (/search-results or /client/...). */
  path: string;
}

// The search filters. Without JavaScript this is a plain GET form and the
// server renders the results. With it, Update Results rewrites the URL, shows
// six skeleton cards, and swaps in the server-rendered results region, the
// heading and the tab's title, so the cards are rendered by one component
// (SpaCard.astro) either way.
// The selects are uncontrolled: a choice made before hydration stays, and
// Update Results reads the form as it is (docs/decisions/0016).
export default function SearchFilters({ treatments, cities, service, city, trust, available, sort, path }: Props) {
  const [loading, setLoading] = useState(false);
  const request = useRef<AbortController | null>(null);
  const serviceRef = useRef<HTMLSelectElement>(null);
  const cityRef = useRef<HTMLSelectElement>(null);
  const trustRef = useRef<HTMLSelectElement>(null);
  const sortRef = useRef<HTMLSelectElement>(null);
  const availableRef = useRef<HTMLInputElement>(null);

  async function showResults(url: string) {
    const region = document.getElementById('search-results');
    const skeleton = document.getElementById('search-skeleton') as HTMLTemplateElement | null;
    if (!region) return void window.location.assign(url);
    request.current?.abort();
    const controller = new AbortController();
    request.current = controller;
    setLoading(true);
    region.setAttribute('aria-busy', 'true');
    const heading = region.querySelector('[data-results-heading]');
    if (heading) heading.textContent = 'Searching...';
    const list = region.querySelector('[data-results-body]');
    if (list && skeleton) list.replaceChildren(skeleton.content.cloneNode(true));
    try {
      const response = await fetch(url, { signal: controller.signal, headers: { Accept: 'text/html' } });
      if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
      const page = new DOMParser().parseFromString(await response.text(), 'text/html');
      const next = page.getElementById('search-results');
      if (!next) throw new Error('No results in the response');
      region.replaceWith(document.importNode(next, true));
      // The heading and the tab's title name the search too (issue 26: they went stale).
      const heading = document.querySelector('[data-search-heading]');
      const nextHeading = page.querySelector('[data-search-heading]');
      if (heading && nextHeading) heading.textContent = nextHeading.textContent;
      if (page.title) document.title = page.title;
    } catch (error) {
      if ((error as Error).name === 'AbortError') return;
      // The page itself still works: fall back to loading it whole.
      window.location.assign(url);
    } finally {
      if (request.current === controller) setLoading(false);
    }
  }

  useEffect(() => {
    const onPopState = () => {
      const params = new URLSearchParams(window.location.search);
      if (serviceRef.current) serviceRef.current.value = params.get('service') || ALL_SERVICES;
      if (cityRef.current) cityRef.current.value = params.get('city') || ALL_CITIES;
      if (trustRef.current) trustRef.current.value = params.get('trust') || '';
      if (sortRef.current) sortRef.current.value = params.get('sort') || '';
      if (availableRef.current) availableRef.current.checked = params.get('available') === 'week';
      void showResults(window.location.pathname + window.location.search);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, []);

  function onSubmit(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const url = searchUrl(
      {
        service: String(data.get('service') ?? ALL_SERVICES),
        city: String(data.get('city') ?? ALL_CITIES),
        trust: String(data.get('trust') ?? '') || undefined,
        available: String(data.get('available') ?? '') || undefined,
        sort: String(data.get('sort') ?? '') || undefined,
      },
      path,
    );
    window.history.pushState(null, '', url);
    void showResults(url);
  }

  return (
    <form
      method="get"
      action={path}
      onSubmit={onSubmit}
      className="card grid gap-4 p-5 sm:grid-cols-2 lg:grid-cols-4 lg:items-end"
      role="search"
      aria-label="Filter providers"
    >
      <SelectField ref={serviceRef} id="filter-service" name="service" label="Treatment" options={treatments} defaultValue={service ?? ALL_SERVICES} />
      <SelectField ref={cityRef} id="filter-city" name="city" label="Location" options={cities} defaultValue={city ?? ALL_CITIES} />
      <SelectField ref={trustRef} id="filter-trust" name="trust" label="Who treats you" options={TRUST_OPTIONS} defaultValue={trust ?? ''} />
      <SelectField ref={sortRef} id="filter-sort" name="sort" label="Sort by" options={SORT_OPTIONS} defaultValue={sort ?? ''} />
      <div className="flex flex-col gap-4 sm:col-span-2 sm:flex-row sm:items-center sm:justify-between lg:col-span-4">
        <div className="flex items-start gap-3">
          <input
            ref={availableRef}
            id="filter-available"
            type="checkbox"
            name="available"
            value="week"
            defaultChecked={available === 'week'}
            className="mt-1 size-5 shrink-0 accent-brand-700"
            aria-describedby="filter-available-hint"
          />
          <div>
            <label htmlFor="filter-available" className="text-ink">
              Available this week
            </label>
            <p id="filter-available-hint" className="text-sm text-ink-muted">
              Books online, with an open time in the next 7 days
            </p>
          </div>
        </div>
        {/* aria-disabled, not disabled: a disabled button drops the keyboard focus to the page. */}
        <button type="submit" className="btn-primary btn-lg aria-disabled:opacity-60" aria-disabled={loading || undefined}>
          Update Results
        </button>
      </div>
    </form>
  );
}
