// Demo content for the Orange County med-spa directory: 8 cities, their spas
// with services (one file per city), offers, and the people the demo needs.
// Pure data, deterministic. Business names, people and phone numbers are
// fictional (phones use the 555-01xx range); city facts are real. db/seed.ts
// writes it in this order, so ids are the same on every seed.
import { newportBeachSpas } from './newport-beach.ts';
import { irvineSpas } from './irvine.ts';
import { costaMesaSpas } from './costa-mesa.ts';
import { huntingtonBeachSpas } from './huntington-beach.ts';
import { lagunaBeachSpas } from './laguna-beach.ts';
import { danaPointSpas } from './dana-point.ts';
import { missionViejoSpas } from './mission-viejo.ts';
import { anaheimSpas } from './anaheim.ts';
import type { DemoSpa } from './types.ts';

export { demoCities } from './cities.ts';
export { demoOffers } from './offers.ts';
export { demoAnsweredRequests, demoClinicians, demoOwner, demoReviews } from './people.ts';
export { demoAvailability } from './availability.ts';
export type { DemoAvailability, DemoCity, DemoClinician, DemoOffer, DemoReview, DemoService, DemoSpa } from './types.ts';

export const demoSpas: DemoSpa[] = [
  ...newportBeachSpas,
  ...irvineSpas,
  ...costaMesaSpas,
  ...huntingtonBeachSpas,
  ...lagunaBeachSpas,
  ...danaPointSpas,
  ...missionViejoSpas,
  ...anaheimSpas,
];
