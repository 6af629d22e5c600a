// Reads the JSON API needs beyond the directory's page queries.
import { listActiveSpas, type SpaCardData } from './directory.ts';

/** Every active spa as a card (the shape spaJson takes), tier then newest. */
export function listActiveSpaCards(): SpaCardData[] {
  return listActiveSpas().map(({ spa, city }) => ({ ...spa, cityName: city.name, citySlug: city.slug }));
}
