// The eight Orange County cities of the demo directory. City facts are real.
import type { DemoCity } from './types.ts';

export const demoCities: DemoCity[] = [
  {
    slug: 'newport-beach',
    name: 'Newport Beach',
    zipCode: '92660',
    address: '4695 MacArthur Court, Suite 1100, Newport Beach, CA 92660',
    phone: '(949) 555-0100',
    email: 'newport-beach@ocmedspadirectory.com',
    description:
      'Newport Beach wraps around a working harbor and the Balboa Peninsula, and its aesthetic practices cluster around Fashion Island, Newport Center and the Corona del Mar stretch of Coast Highway. Many clinics here are led by board-certified dermatologists and plastic surgeons, with a strong focus on injectables, laser resurfacing and medical-grade skin care.',
    imageUrl: '/images/cities/newport-beach.svg',
  },
  {
    slug: 'irvine',
    name: 'Irvine',
    zipCode: '92618',
    address: '71 Fortune Drive, Suite 200, Irvine, CA 92618',
    phone: '(949) 555-0101',
    email: 'irvine@ocmedspadirectory.com',
    description:
      'Irvine is a master-planned city anchored by the University of California, Irvine and a large business district near John Wayne Airport. Its med spas sit in village shopping centers and office parks from Northwood to the Irvine Spectrum, which makes lunchtime injectables, laser sessions and IV therapy easy to fit into a workday.',
    imageUrl: '/images/cities/irvine.svg',
  },
  {
    slug: 'costa-mesa',
    name: 'Costa Mesa',
    zipCode: '92626',
    address: '3200 Park Center Drive, Suite 150, Costa Mesa, CA 92626',
    phone: '(714) 555-0100',
    email: 'costa-mesa@ocmedspadirectory.com',
    description:
      'Costa Mesa calls itself the City of the Arts and is home to South Coast Plaza and the Segerstrom Center for the Arts. Its aesthetics scene mixes polished clinics in the towers near South Coast Plaza with independent facial studios and wellness lounges along East 17th Street and Newport Boulevard.',
    imageUrl: '/images/cities/costa-mesa.svg',
  },
  {
    slug: 'huntington-beach',
    name: 'Huntington Beach',
    zipCode: '92648',
    address: '412 Olive Avenue, Suite 210, Huntington Beach, CA 92648',
    phone: '(714) 555-0101',
    email: 'huntington-beach@ocmedspadirectory.com',
    description:
      'Huntington Beach, known as Surf City USA, pairs a long run of public beach with a lively downtown around Main Street and the pier. Sun exposure is part of daily life here, so local clinics lean into pigment correction, laser treatments and sun-damage repair alongside body contouring and hydration therapy.',
    imageUrl: '/images/cities/huntington-beach.svg',
  },
  {
    slug: 'laguna-beach',
    name: 'Laguna Beach',
    zipCode: '92651',
    address: '1100 Glenneyre Street, Suite 4, Laguna Beach, CA 92651',
    phone: '(949) 555-0102',
    email: 'laguna-beach@ocmedspadirectory.com',
    description:
      'Laguna Beach grew from an early twentieth-century artists colony into a coastal village of coves, canyons and galleries, and it still hosts the Festival of Arts every summer. Its aesthetics practices tend to be intimate, appointment-driven studios along Coast Highway and Forest Avenue, known for natural-looking results and restorative wellness care.',
    imageUrl: '/images/cities/laguna-beach.svg',
  },
  {
    slug: 'dana-point',
    name: 'Dana Point',
    zipCode: '92629',
    address: '34085 Pacific Coast Highway, Suite 210, Dana Point, CA 92629',
    phone: '(949) 555-0103',
    email: 'dana-point@ocmedspadirectory.com',
    description:
      'Dana Point is a harbor town at the southern end of the county, known for whale watching, Doheny State Beach and the resorts on its headlands. Its med spas serve locals and resort guests alike, with clinical skin care in the walkable Lantern District and relaxed, recovery-focused wellness services near the harbor.',
    imageUrl: '/images/cities/dana-point.svg',
  },
  {
    slug: 'mission-viejo',
    name: 'Mission Viejo',
    zipCode: '92691',
    address: '27261 La Paz Road, Suite 100, Mission Viejo, CA 92691',
    phone: '(949) 555-0104',
    email: 'mission-viejo@ocmedspadirectory.com',
    description:
      'Mission Viejo is a master-planned community in the Saddleback Valley, built around Lake Mission Viejo and a network of parks and trails. Its aesthetic clinics are mostly independent practices along Marguerite Parkway and near the medical offices around Mission Hospital, offering injectables, laser care and medical weight-loss programs close to home.',
    imageUrl: '/images/cities/mission-viejo.svg',
  },
  {
    slug: 'anaheim',
    name: 'Anaheim',
    zipCode: '92805',
    address: '201 South Anaheim Boulevard, Suite 300, Anaheim, CA 92805',
    phone: '(714) 555-0102',
    email: 'anaheim@ocmedspadirectory.com',
    description:
      'Anaheim is the most populous city in Orange County, best known for the Disneyland Resort and the Platinum Triangle around the stadium and Honda Center. Beyond the resort district, its med spas range from hillside practices in Anaheim Hills to neighborhood studios near the Center Street Promenade downtown, with approachable pricing on injectables, facials and laser hair removal.',
    imageUrl: '/images/cities/anaheim.svg',
  },
];
