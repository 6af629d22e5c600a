DROP INDEX `spas_city_listing_idx`;--> statement-breakpoint
DROP INDEX `spas_listing_idx`;--> statement-breakpoint
CREATE INDEX `spas_rank_idx` ON `spas` (`active`,(case "tier" when 'ELITE' then 3 when 'PREMIUM' then 2 else 1 end) desc,"created_at" desc,"id" desc);--> statement-breakpoint
CREATE INDEX `spas_city_rank_idx` ON `spas` (`city_id`,`active`,(case "tier" when 'ELITE' then 3 when 'PREMIUM' then 2 else 1 end) desc,"created_at" desc,"id" desc);