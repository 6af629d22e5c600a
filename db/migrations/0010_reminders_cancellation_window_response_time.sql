CREATE TABLE `mail_sent_marks` (
	`key` text NOT NULL,
	`not_before` integer NOT NULL,
	`marked_at` integer NOT NULL,
	PRIMARY KEY(`key`, `not_before`)
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `first_answered_at` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `owner_reminded_at` integer;--> statement-breakpoint
ALTER TABLE `mail_queue` ADD `key` text;--> statement-breakpoint
ALTER TABLE `mail_queue` ADD `not_before` integer;--> statement-breakpoint
ALTER TABLE `mail_queue` ADD `not_after` integer;--> statement-breakpoint
CREATE INDEX `mail_queue_key_idx` ON `mail_queue` (`key`);--> statement-breakpoint
ALTER TABLE `spas` ADD `cancellation_window_hours` integer DEFAULT 24 NOT NULL;