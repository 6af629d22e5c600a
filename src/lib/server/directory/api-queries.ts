// Reads the JSON API needs beyond the directory's page queries.
import { listActiveSpaCardRows, type SpaCardData } from './directory.ts';

/** Every active spa as a card (the shape spaJson takes), tier then newest. */
export function listActiveSpaCards(): SpaCardData[] {
  return listActiveSpaCardRows();
}
