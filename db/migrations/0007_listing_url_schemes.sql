-- Custom migration: the addresses a listing links to (website, booking link,
-- social feed, video) go into href attributes, so only http(s) URLs may be
-- stored, whoever writes them (owner forms, the seed, a script). Pages check
-- again when they render (src/lib/urls.ts), for rows written before this.
CREATE TRIGGER spas_url_schemes_insert BEFORE INSERT ON spas
WHEN (NEW.website IS NOT NULL AND lower(NEW.website) NOT GLOB 'http://?*' AND lower(NEW.website) NOT GLOB 'https://?*')
  OR (NEW.booking_link IS NOT NULL AND lower(NEW.booking_link) NOT GLOB 'http://?*' AND lower(NEW.booking_link) NOT GLOB 'https://?*')
  OR (NEW.social_feed_url IS NOT NULL AND lower(NEW.social_feed_url) NOT GLOB 'http://?*' AND lower(NEW.social_feed_url) NOT GLOB 'https://?*')
  OR (NEW.video_url IS NOT NULL AND lower(NEW.video_url) NOT GLOB 'http://?*' AND lower(NEW.video_url) NOT GLOB 'https://?*')
BEGIN
  SELECT RAISE(ABORT, 'Listing URLs must start with http:// or https://');
END;
--> statement-breakpoint
CREATE TRIGGER spas_url_schemes_update BEFORE UPDATE OF website, booking_link, social_feed_url, video_url ON spas
WHEN (NEW.website IS NOT NULL AND lower(NEW.website) NOT GLOB 'http://?*' AND lower(NEW.website) NOT GLOB 'https://?*')
  OR (NEW.booking_link IS NOT NULL AND lower(NEW.booking_link) NOT GLOB 'http://?*' AND lower(NEW.booking_link) NOT GLOB 'https://?*')
  OR (NEW.social_feed_url IS NOT NULL AND lower(NEW.social_feed_url) NOT GLOB 'http://?*' AND lower(NEW.social_feed_url) NOT GLOB 'https://?*')
  OR (NEW.video_url IS NOT NULL AND lower(NEW.video_url) NOT GLOB 'http://?*' AND lower(NEW.video_url) NOT GLOB 'https://?*')
BEGIN
  SELECT RAISE(ABORT, 'Listing URLs must start with http:// or https://');
END;
