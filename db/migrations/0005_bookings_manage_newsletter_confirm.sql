ALTER TABLE `bookings` ADD `manage_token` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `calendar_sequence` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `bookings_email_idx` ON `bookings` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_manage_token_unique` ON `bookings` (`manage_token`);--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirm_token_hash` text;--> statement-breakpoint
ALTER TABLE `newsletter_subscribers` ADD `confirm_sent_at` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_confirm_token_unique` ON `newsletter_subscribers` (`confirm_token_hash`);