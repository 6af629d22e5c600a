-- Written by hand: drizzle-kit wanted to rebuild the spas table for the new
-- check, which would drop its triggers (content version, search index, URL
-- schemes). A column check does the same job.
ALTER TABLE `spas` ADD `review_status` text DEFAULT 'approved' NOT NULL CHECK (review_status in ('pending', 'approved', 'rejected'));--> statement-breakpoint
ALTER TABLE `spas` ADD `review_note` text;
