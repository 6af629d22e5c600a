CREATE TABLE `clinicians` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`spa_id` integer NOT NULL,
	`name` text NOT NULL,
	`role` text NOT NULL,
	`license_number` text NOT NULL,
	`is_medical_director` integer DEFAULT false NOT NULL,
	`treatments` text DEFAULT '[]' NOT NULL,
	`license_checked_at` integer,
	`license_checked_by` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`license_checked_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "clinicians_role_check" CHECK(role in ('MD', 'DO', 'NP', 'PA', 'RN')),
	CONSTRAINT "clinicians_director_role_check" CHECK(is_medical_director = 0 or role in ('MD', 'DO')),
	CONSTRAINT "clinicians_name_length_check" CHECK(length(name) between 1 and 120)
);
--> statement-breakpoint
CREATE INDEX `clinicians_spa_idx` ON `clinicians` (`spa_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `clinicians_spa_license_unique` ON `clinicians` (`spa_id`,`role`,`license_number`);--> statement-breakpoint
CREATE UNIQUE INDEX `clinicians_one_director` ON `clinicians` (`spa_id`) WHERE is_medical_director = 1;--> statement-breakpoint
CREATE TABLE `review_invitations` (
	`booking_id` integer PRIMARY KEY NOT NULL,
	`token_hash` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_invitations_token_unique` ON `review_invitations` (`token_hash`);--> statement-breakpoint
CREATE TABLE `review_reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`review_id` integer NOT NULL,
	`reason` text NOT NULL,
	`decision` text,
	`decision_reason` text,
	`decided_by` integer,
	`decided_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`review_id`) REFERENCES `reviews`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "review_reports_reason_length_check" CHECK(length(reason) between 1 and 500),
	CONSTRAINT "review_reports_decision_check" CHECK(decision is null or decision in ('kept', 'removed'))
);
--> statement-breakpoint
CREATE INDEX `review_reports_open_idx` ON `review_reports` (`decided_at`,`created_at`);--> statement-breakpoint
CREATE TABLE `reviews` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`spa_id` integer NOT NULL,
	`rating` integer NOT NULL,
	`body` text NOT NULL,
	`treatment` text,
	`author_name` text NOT NULL,
	`visit_month` text NOT NULL,
	`state` text DEFAULT 'published' NOT NULL,
	`removed_reason` text,
	`reply` text,
	`replied_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "reviews_rating_check" CHECK(rating between 1 and 5),
	CONSTRAINT "reviews_body_length_check" CHECK(length(body) between 1 and 2000),
	CONSTRAINT "reviews_reply_length_check" CHECK(reply is null or length(reply) between 1 and 1000),
	CONSTRAINT "reviews_state_check" CHECK(state in ('published', 'removed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reviews_booking_unique` ON `reviews` (`booking_id`);--> statement-breakpoint
CREATE INDEX `reviews_spa_idx` ON `reviews` (`spa_id`,`state`,`created_at`);--> statement-breakpoint
-- Custom SQL (as in 0007): the spa page shows clinicians and reviews, so any
-- change to them bumps the content version and the page is rebuilt.
CREATE TRIGGER clinicians_content_version_insert AFTER INSERT ON clinicians
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER clinicians_content_version_update AFTER UPDATE ON clinicians
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER clinicians_content_version_delete AFTER DELETE ON clinicians
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER reviews_content_version_insert AFTER INSERT ON reviews
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER reviews_content_version_update AFTER UPDATE ON reviews
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
CREATE TRIGGER reviews_content_version_delete AFTER DELETE ON reviews
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
-- Reviews are published as written (FTC 2024 rule on fake and suppressed
-- reviews): whoever writes to the database, nothing may change what the client
-- wrote, and the spa's public reply is written once.
CREATE TRIGGER reviews_as_written BEFORE UPDATE OF booking_id, spa_id, rating, body, treatment, author_name, visit_month, created_at ON reviews
BEGIN
  SELECT RAISE(ABORT, 'A review is published as written and cannot be edited');
END;
--> statement-breakpoint
CREATE TRIGGER reviews_reply_once BEFORE UPDATE OF reply, replied_at ON reviews
WHEN OLD.reply IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'The spa has already replied to this review');
END;
