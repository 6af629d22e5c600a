-- Custom migration: rules the schema cannot express as columns.

-- The single row that carries the content version (see db/schema.ts, site_meta).
INSERT INTO site_meta (id, content_version) VALUES (1, 0);
--> statement-breakpoint
-- At most 3 active Elite spas per city. A trigger, not application code, so that
-- two owners upgrading at the same moment cannot both pass a check-then-write:
-- SQLite runs writers one at a time and the trigger sees the committed count.
-- (An upsert fires the insert trigger before it finds the conflict, hence the
-- slug test: the row being upserted does not count against itself.)
CREATE TRIGGER spas_elite_cap_insert BEFORE INSERT ON spas
WHEN NEW.tier = 'ELITE' AND NEW.active = 1
BEGIN
  SELECT RAISE(ABORT, 'Elite tier is at capacity for this city')
  WHERE (SELECT count(*) FROM spas WHERE city_id = NEW.city_id AND tier = 'ELITE' AND active = 1 AND slug <> NEW.slug) >= 3;
END;
--> statement-breakpoint
CREATE TRIGGER spas_elite_cap_update BEFORE UPDATE OF tier, active, city_id ON spas
WHEN NEW.tier = 'ELITE' AND NEW.active = 1
BEGIN
  SELECT RAISE(ABORT, 'Elite tier is at capacity for this city')
  WHERE (SELECT count(*) FROM spas WHERE city_id = NEW.city_id AND tier = 'ELITE' AND active = 1 AND id <> NEW.id) >= 3;
END;
--> statement-breakpoint
-- Anything a pre-rendered page shows bumps the content version, so `npm start`
-- and the rebuild queue can tell that the published site is older than the data.
CREATE TRIGGER cities_content_version_insert AFTER INSERT ON cities
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER cities_content_version_update AFTER UPDATE ON cities
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER cities_content_version_delete AFTER DELETE ON cities
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spas_content_version_insert AFTER INSERT ON spas
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spas_content_version_update AFTER UPDATE ON spas
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spas_content_version_delete AFTER DELETE ON spas
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spa_photos_content_version_insert AFTER INSERT ON spa_photos
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spa_photos_content_version_update AFTER UPDATE ON spa_photos
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spa_photos_content_version_delete AFTER DELETE ON spa_photos
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER services_content_version_insert AFTER INSERT ON services
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER services_content_version_update AFTER UPDATE ON services
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER services_content_version_delete AFTER DELETE ON services
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offers_content_version_insert AFTER INSERT ON offers
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offers_content_version_update AFTER UPDATE ON offers
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offers_content_version_delete AFTER DELETE ON offers
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offer_services_content_version_insert AFTER INSERT ON offer_services
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offer_services_content_version_update AFTER UPDATE ON offer_services
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offer_services_content_version_delete AFTER DELETE ON offer_services
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
