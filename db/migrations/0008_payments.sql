CREATE TABLE `checkout_holds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`city_id` integer NOT NULL,
	`spa_id` integer NOT NULL,
	`user_id` integer,
	`tier` text NOT NULL,
	`checkout_session_id` text,
	`expires_at` integer NOT NULL,
	`released_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `checkout_holds_city_idx` ON `checkout_holds` (`city_id`,`tier`,`released_at`,`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `checkout_holds_session_unique` ON `checkout_holds` (`checkout_session_id`);--> statement-breakpoint
CREATE TABLE `stripe_events` (
	`id` text PRIMARY KEY NOT NULL,
	`type` text NOT NULL,
	`created` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `payment_status` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `payment_amount_cents` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `payment_event_created` integer;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `billing` text;--> statement-breakpoint
ALTER TABLE `subscriptions` ADD `last_event_created` integer DEFAULT 0 NOT NULL;