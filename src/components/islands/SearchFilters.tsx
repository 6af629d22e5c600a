import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { ALL_CITIES, ALL_SERVICES, searchUrl } from '#lib/search-url.ts';
import { SelectField } from './field-errors.tsx';

interface Option {
  value: string;
  label: string;
}

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
  /** The page path the results live on (/search-results or /client/...). */
  path: string;
}

// The search filters. Without JavaScript this is a plain GET form and the
// server renders the results. With it, Update Results rewrites the URL, shows
// six skeleton cards, and swaps in the server-rendered results region, so the
// cards are rendered by one component (SpaCard.astro) either way.
// The selects are uncontrolled: a choice made before hydration stays, and
// Update Results reads the form as it is (docs/decisions/0016).
export default function SearchFilters({ treatments, cities, service, city, trust, path }: Props) {
  const [loading, setLoading] = useState(false);
  const request = useRef<AbortController | null>(null);
  const serviceRef = useRef<HTMLSelectElement>(null);
  const cityRef = useRef<HTMLSelectElement>(null);
  const trustRef = useRef<HTMLSelectElement>(null);

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
      className="card grid gap-4 p-5 sm:grid-cols-2 lg:grid-cols-[1fr_1fr_1fr_auto] lg:items-end"
      role="search"
      aria-label="Filter providers"
    >
      <SelectField ref={serviceRef} id="filter-service" name="service" label="Treatment" options={treatments} defaultValue={service ?? ALL_SERVICES} />
      <SelectField ref={cityRef} id="filter-city" name="city" label="Location" options={cities} defaultValue={city ?? ALL_CITIES} />
      <SelectField ref={trustRef} id="filter-trust" name="trust" label="Who treats you" options={TRUST_OPTIONS} defaultValue={trust ?? ''} />
      <button type="submit" className="btn-primary btn-lg" disabled={loading}>
        Update Results
      </button>
    </form>
  );
}
