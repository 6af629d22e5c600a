-- Custom migration: the spa page shows a social feed card built from
-- social_media_cache, so a card fetched, refreshed or dropped must bump the
-- content version like any other listed content (see 0001_triggers.sql): the
-- rebuild queue then publishes it.
CREATE TRIGGER social_media_cache_content_version_insert AFTER INSERT ON social_media_cache
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER social_media_cache_content_version_update AFTER UPDATE ON social_media_cache
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER social_media_cache_content_version_delete AFTER DELETE ON social_media_cache
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
