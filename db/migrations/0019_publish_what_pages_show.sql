-- Custom migration (issue 23, item 1): the content version moves only when
-- something a public page shows changes, so a change nobody can see (a
-- listing awaiting review or hidden, its services, photos, offers or
-- clinicians, a save that changes nothing) starts no rebuild. The triggers of
-- 0001, 0013 and 0014 bumped it on every write to these tables.
--
-- Public means: a spa with active = 1 (pages and APIs read active spas only;
-- approval and a paid plan set it) and what belongs to it; a review in state
-- 'published'. A change is public when the row is public before or after it
-- (hiding a listing takes its page down) and a column a page shows differs,
-- compared NULL-safely as a row value, so rewriting a row with its own values
-- changes nothing. Columns left out are shown on no public page: updated_at
-- (the sitemap's lastmod follows with the next build), a spa's owner, claim
-- address, review state and note, Stripe ids and subscription status, the
-- editor who checked a licence, a removed review's reason.
-- db/publication.test.ts fails when a column of these tables is neither
-- compared here nor named there as not public.
DROP TRIGGER spas_content_version_insert;
--> statement-breakpoint
DROP TRIGGER spas_content_version_update;
--> statement-breakpoint
DROP TRIGGER spas_content_version_delete;
--> statement-breakpoint
CREATE TRIGGER spas_content_version_insert AFTER INSERT ON spas
WHEN NEW.active = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spas_content_version_update AFTER UPDATE ON spas
WHEN (OLD.active = 1 OR NEW.active = 1)
  AND (OLD.name, OLD.slug, OLD.description, OLD.address, OLD.phone, OLD.email, OLD.website, OLD.image_url,
       OLD.booking_link, OLD.social_feed_url, OLD.social_platform, OLD.video_url, OLD.opening_hours, OLD.hours_note,
       OLD.booking_mode, OLD.min_notice_minutes, OLD.booking_horizon_days, OLD.slot_step_minutes, OLD.treatment_rooms,
       OLD.tier, OLD.active, OLD.featured, OLD.verified, OLD.city_id, OLD.cancellation_window_hours, OLD.created_at)
  IS NOT
      (NEW.name, NEW.slug, NEW.description, NEW.address, NEW.phone, NEW.email, NEW.website, NEW.image_url,
       NEW.booking_link, NEW.social_feed_url, NEW.social_platform, NEW.video_url, NEW.opening_hours, NEW.hours_note,
       NEW.booking_mode, NEW.min_notice_minutes, NEW.booking_horizon_days, NEW.slot_step_minutes, NEW.treatment_rooms,
       NEW.tier, NEW.active, NEW.featured, NEW.verified, NEW.city_id, NEW.cancellation_window_hours, NEW.created_at)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spas_content_version_delete AFTER DELETE ON spas
WHEN OLD.active = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
DROP TRIGGER spa_photos_content_version_insert;
--> statement-breakpoint
DROP TRIGGER spa_photos_content_version_update;
--> statement-breakpoint
DROP TRIGGER spa_photos_content_version_delete;
--> statement-breakpoint
CREATE TRIGGER spa_photos_content_version_insert AFTER INSERT ON spa_photos
WHEN (SELECT active FROM spas WHERE id = NEW.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spa_photos_content_version_update AFTER UPDATE ON spa_photos
WHEN ((SELECT active FROM spas WHERE id = OLD.spa_id) = 1 OR (SELECT active FROM spas WHERE id = NEW.spa_id) = 1)
  AND (OLD.spa_id, OLD.url, OLD.alt, OLD.position, OLD.created_at) IS NOT (NEW.spa_id, NEW.url, NEW.alt, NEW.position, NEW.created_at)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER spa_photos_content_version_delete AFTER DELETE ON spa_photos
WHEN (SELECT active FROM spas WHERE id = OLD.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
DROP TRIGGER services_content_version_insert;
--> statement-breakpoint
DROP TRIGGER services_content_version_update;
--> statement-breakpoint
DROP TRIGGER services_content_version_delete;
--> statement-breakpoint
CREATE TRIGGER services_content_version_insert AFTER INSERT ON services
WHEN (SELECT active FROM spas WHERE id = NEW.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER services_content_version_update AFTER UPDATE ON services
WHEN ((SELECT active FROM spas WHERE id = OLD.spa_id) = 1 OR (SELECT active FROM spas WHERE id = NEW.spa_id) = 1)
  AND (OLD.spa_id, OLD.name, OLD.description, OLD.price_cents, OLD.price_unit, OLD.duration, OLD.bookable_online,
       OLD.buffer_after_minutes, OLD.category, OLD.treatment, OLD.image_url, OLD.active, OLD.created_at)
  IS NOT
      (NEW.spa_id, NEW.name, NEW.description, NEW.price_cents, NEW.price_unit, NEW.duration, NEW.bookable_online,
       NEW.buffer_after_minutes, NEW.category, NEW.treatment, NEW.image_url, NEW.active, NEW.created_at)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER services_content_version_delete AFTER DELETE ON services
WHEN (SELECT active FROM spas WHERE id = OLD.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
DROP TRIGGER offers_content_version_insert;
--> statement-breakpoint
DROP TRIGGER offers_content_version_update;
--> statement-breakpoint
DROP TRIGGER offers_content_version_delete;
--> statement-breakpoint
CREATE TRIGGER offers_content_version_insert AFTER INSERT ON offers
WHEN (SELECT active FROM spas WHERE id = NEW.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offers_content_version_update AFTER UPDATE ON offers
WHEN ((SELECT active FROM spas WHERE id = OLD.spa_id) = 1 OR (SELECT active FROM spas WHERE id = NEW.spa_id) = 1)
  AND (OLD.spa_id, OLD.title, OLD.slug, OLD.description, OLD.original_price_cents, OLD.offer_price_cents, OLD.savings_cents,
       OLD.valid_from, OLD.valid_to, OLD.city_id, OLD.image_url, OLD.active, OLD.featured, OLD.created_at)
  IS NOT
      (NEW.spa_id, NEW.title, NEW.slug, NEW.description, NEW.original_price_cents, NEW.offer_price_cents, NEW.savings_cents,
       NEW.valid_from, NEW.valid_to, NEW.city_id, NEW.image_url, NEW.active, NEW.featured, NEW.created_at)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offers_content_version_delete AFTER DELETE ON offers
WHEN (SELECT active FROM spas WHERE id = OLD.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
DROP TRIGGER offer_services_content_version_insert;
--> statement-breakpoint
DROP TRIGGER offer_services_content_version_update;
--> statement-breakpoint
DROP TRIGGER offer_services_content_version_delete;
--> statement-breakpoint
CREATE TRIGGER offer_services_content_version_insert AFTER INSERT ON offer_services
WHEN (SELECT s.active FROM offers o JOIN spas s ON s.id = o.spa_id WHERE o.id = NEW.offer_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offer_services_content_version_update AFTER UPDATE ON offer_services
WHEN ((SELECT s.active FROM offers o JOIN spas s ON s.id = o.spa_id WHERE o.id = OLD.offer_id) = 1
      OR (SELECT s.active FROM offers o JOIN spas s ON s.id = o.spa_id WHERE o.id = NEW.offer_id) = 1)
  AND (OLD.offer_id, OLD.service_id) IS NOT (NEW.offer_id, NEW.service_id)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER offer_services_content_version_delete AFTER DELETE ON offer_services
WHEN (SELECT s.active FROM offers o JOIN spas s ON s.id = o.spa_id WHERE o.id = OLD.offer_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
DROP TRIGGER clinicians_content_version_insert;
--> statement-breakpoint
DROP TRIGGER clinicians_content_version_update;
--> statement-breakpoint
DROP TRIGGER clinicians_content_version_delete;
--> statement-breakpoint
CREATE TRIGGER clinicians_content_version_insert AFTER INSERT ON clinicians
WHEN (SELECT active FROM spas WHERE id = NEW.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER clinicians_content_version_update AFTER UPDATE ON clinicians
WHEN ((SELECT active FROM spas WHERE id = OLD.spa_id) = 1 OR (SELECT active FROM spas WHERE id = NEW.spa_id) = 1)
  AND (OLD.spa_id, OLD.name, OLD.role, OLD.license_number, OLD.is_medical_director, OLD.treatments, OLD.license_checked_at,
       OLD.working_hours, OLD.created_at)
  IS NOT
      (NEW.spa_id, NEW.name, NEW.role, NEW.license_number, NEW.is_medical_director, NEW.treatments, NEW.license_checked_at,
       NEW.working_hours, NEW.created_at)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER clinicians_content_version_delete AFTER DELETE ON clinicians
WHEN (SELECT active FROM spas WHERE id = OLD.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
DROP TRIGGER reviews_content_version_insert;
--> statement-breakpoint
DROP TRIGGER reviews_content_version_update;
--> statement-breakpoint
DROP TRIGGER reviews_content_version_delete;
--> statement-breakpoint
CREATE TRIGGER reviews_content_version_insert AFTER INSERT ON reviews
WHEN NEW.state = 'published' AND (SELECT active FROM spas WHERE id = NEW.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER reviews_content_version_update AFTER UPDATE ON reviews
WHEN (OLD.state = 'published' OR NEW.state = 'published')
  AND ((SELECT active FROM spas WHERE id = OLD.spa_id) = 1 OR (SELECT active FROM spas WHERE id = NEW.spa_id) = 1)
  AND (OLD.spa_id, OLD.booking_id, OLD.rating, OLD.body, OLD.treatment, OLD.author_name, OLD.visit_month, OLD.state,
       OLD.reply, OLD.replied_at, OLD.created_at)
  IS NOT
      (NEW.spa_id, NEW.booking_id, NEW.rating, NEW.body, NEW.treatment, NEW.author_name, NEW.visit_month, NEW.state,
       NEW.reply, NEW.replied_at, NEW.created_at)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER reviews_content_version_delete AFTER DELETE ON reviews
WHEN OLD.state = 'published' AND (SELECT active FROM spas WHERE id = OLD.spa_id) = 1
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
DROP TRIGGER social_media_cache_content_version_insert;
--> statement-breakpoint
DROP TRIGGER social_media_cache_content_version_update;
--> statement-breakpoint
DROP TRIGGER social_media_cache_content_version_delete;
--> statement-breakpoint
-- A card is shown on the page of a listed spa whose social feed it is.
CREATE TRIGGER social_media_cache_content_version_insert AFTER INSERT ON social_media_cache
WHEN EXISTS (SELECT 1 FROM spas WHERE social_feed_url = NEW.url AND active = 1)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER social_media_cache_content_version_update AFTER UPDATE ON social_media_cache
WHEN EXISTS (SELECT 1 FROM spas WHERE social_feed_url IN (OLD.url, NEW.url) AND active = 1)
  AND (OLD.url, OLD.platform, OLD.embed_html, OLD.thumbnail_url, OLD.title, OLD.author_name, OLD.author_url, OLD.provider_name,
       OLD.width, OLD.height, OLD.fetched_at, OLD.expires_at, OLD.active)
  IS NOT
      (NEW.url, NEW.platform, NEW.embed_html, NEW.thumbnail_url, NEW.title, NEW.author_name, NEW.author_url, NEW.provider_name,
       NEW.width, NEW.height, NEW.fetched_at, NEW.expires_at, NEW.active)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER social_media_cache_content_version_delete AFTER DELETE ON social_media_cache
WHEN EXISTS (SELECT 1 FROM spas WHERE social_feed_url = OLD.url AND active = 1)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
