-- A spa's no-show policy is shown beside each treatment's price on its public
-- page (src/components/ServicePolicyNote.astro), so changing it publishes, as
-- every other shown column of spas does (0019_publish_what_pages_show.sql).
DROP TRIGGER spas_content_version_update;
--> statement-breakpoint
CREATE TRIGGER spas_content_version_update AFTER UPDATE ON spas
WHEN (OLD.active = 1 OR NEW.active = 1)
  AND (OLD.name, OLD.slug, OLD.description, OLD.address, OLD.phone, OLD.email, OLD.website, OLD.image_url,
       OLD.booking_link, OLD.social_feed_url, OLD.social_platform, OLD.video_url, OLD.opening_hours, OLD.hours_note,
       OLD.booking_mode, OLD.min_notice_minutes, OLD.booking_horizon_days, OLD.slot_step_minutes, OLD.treatment_rooms,
       OLD.tier, OLD.active, OLD.featured, OLD.verified, OLD.city_id, OLD.cancellation_window_hours, OLD.created_at,
       OLD.no_show_policy)
  IS NOT
      (NEW.name, NEW.slug, NEW.description, NEW.address, NEW.phone, NEW.email, NEW.website, NEW.image_url,
       NEW.booking_link, NEW.social_feed_url, NEW.social_platform, NEW.video_url, NEW.opening_hours, NEW.hours_note,
       NEW.booking_mode, NEW.min_notice_minutes, NEW.booking_horizon_days, NEW.slot_step_minutes, NEW.treatment_rooms,
       NEW.tier, NEW.active, NEW.featured, NEW.verified, NEW.city_id, NEW.cancellation_window_hours, NEW.created_at,
       NEW.no_show_policy)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
