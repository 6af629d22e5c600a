import type { APIRoute } from 'astro';
import { listCities } from '#lib/server/directory/directory.ts';
import { json } from '#lib/server/http.ts';

export const prerender = false;

// A city's contact columns stay out: the directory shows spas' details, not the city's.
export const GET: APIRoute = () =>
  json(
    listCities().map((city) => ({
      id: city.id,
      name: city.name,
      slug: city.slug,
      state: city.state,
      zipCode: city.zipCode,
      description: city.description,
      imageUrl: city.imageUrl,
    })),
  );
