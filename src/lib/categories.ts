// Each service category has its own icon and fallback picture; anything else
// gets the default ones (spec 3, services).
import { SERVICE_CATEGORIES, type ServiceCategory } from '#db/schema.ts';

const isKnown = (category: string): category is ServiceCategory => (SERVICE_CATEGORIES as readonly string[]).includes(category);

export const categoryIcon = (category: string) => `/images/icons/${isKnown(category) ? category : 'default'}.svg`;

export const categoryImage = (category: string) => `/images/fallback/${isKnown(category) ? category : 'default'}.svg`;

export const categoryLabel = (category: string) => category.charAt(0).toUpperCase() + category.slice(1);
