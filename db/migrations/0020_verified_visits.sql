CREATE TABLE `account_networks` (
	`user_id` integer NOT NULL,
	`network` text NOT NULL,
	`first_seen_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	PRIMARY KEY(`user_id`, `network`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `account_networks_network_idx` ON `account_networks` (`network`,`last_seen_at`);--> statement-breakpoint
CREATE TABLE `review_holds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`spa_id` integer NOT NULL,
	`rating` integer NOT NULL,
	`body` text NOT NULL,
	`treatment` text,
	`author_name` text NOT NULL,
	`visit_month` text NOT NULL,
	`writer_network` text,
	`signals` text NOT NULL,
	`decision` text,
	`decision_reason` text,
	`decided_by` integer,
	`decided_at` integer,
	`review_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`decided_by`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`review_id`) REFERENCES `reviews`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "review_holds_rating_check" CHECK(rating between 1 and 5),
	CONSTRAINT "review_holds_body_length_check" CHECK(length(body) between 1 and 2000),
	CONSTRAINT "review_holds_decision_check" CHECK(decision is null or decision in ('published', 'removed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `review_holds_booking_unique` ON `review_holds` (`booking_id`);--> statement-breakpoint
CREATE INDEX `review_holds_open_idx` ON `review_holds` (`decided_at`,`created_at`);--> statement-breakpoint
CREATE INDEX `review_holds_spa_idx` ON `review_holds` (`spa_id`,`created_at`);--> statement-breakpoint
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_id` integer,
	`actor_email` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`detail` text,
	`at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "audit_log_action_check" CHECK(action in ('approve', 'reject', 'activate', 'deactivate', 'verify', 'unverify', 'feature', 'unfeature', 'rebuild', 'add-admin', 'check-licence', 'uncheck-licence', 'keep-review', 'remove-review', 'release-review'))
);
--> statement-breakpoint
INSERT INTO `__new_audit_log`("id", "actor_id", "actor_email", "action", "target", "detail", "at") SELECT "id", "actor_id", "actor_email", "action", "target", "detail", "at" FROM `audit_log`;--> statement-breakpoint
DROP TABLE `audit_log`;--> statement-breakpoint
ALTER TABLE `__new_audit_log` RENAME TO `audit_log`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target`,`at`);--> statement-breakpoint
ALTER TABLE `reviews` ADD `verified_visit` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `reviews` ADD `writer_network` text;