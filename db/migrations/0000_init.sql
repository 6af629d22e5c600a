CREATE TABLE `analytics_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`event_type` text NOT NULL,
	`entity_type` text NOT NULL,
	`entity_id` text,
	`tier` text,
	`source` text,
	`metadata` text,
	`session_id` text,
	`user_id` integer,
	`user_agent` text,
	`referrer` text,
	`ip_hash` text,
	`occurred_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "analytics_event_type_check" CHECK(event_type in ('view', 'click', 'booking', 'conversion')),
	CONSTRAINT "analytics_entity_type_check" CHECK(entity_type in ('spa', 'page', 'offer'))
);
--> statement-breakpoint
CREATE INDEX `analytics_entity_idx` ON `analytics_events` (`entity_type`,`entity_id`,`event_type`,`occurred_at`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer,
	`service_id` integer,
	`spa_id` integer,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`preferred_date` text,
	`scheduled_at` integer,
	`message` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`stripe_payment_intent_id` text,
	`paid_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "bookings_status_check" CHECK(status in ('pending', 'confirmed', 'cancelled', 'completed'))
);
--> statement-breakpoint
CREATE INDEX `bookings_user_idx` ON `bookings` (`user_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `bookings_spa_idx` ON `bookings` (`spa_id`,`status`);--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_payment_intent_unique` ON `bookings` (`stripe_payment_intent_id`);--> statement-breakpoint
CREATE TABLE `cities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`state` text DEFAULT 'CA' NOT NULL,
	`zip_code` text,
	`address` text,
	`phone` text,
	`email` text,
	`description` text,
	`image_url` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `cities_slug_unique` ON `cities` (`slug`);--> statement-breakpoint
CREATE TABLE `clicks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`target_url` text NOT NULL,
	`user_id` integer,
	`session_id` text,
	`ip_hash` text,
	`user_agent` text,
	`referer` text,
	`utm_source` text,
	`utm_medium` text,
	`utm_campaign` text,
	`spa_id` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE INDEX `clicks_spa_idx` ON `clicks` (`spa_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `leads` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone` text,
	`spa_id` integer,
	`booking_id` integer,
	`city_id` integer,
	`offer_id` integer,
	`service_id` integer,
	`source` text,
	`medium` text,
	`campaign` text,
	`message` text,
	`status` text DEFAULT 'new' NOT NULL,
	`assigned_to` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`offer_id`) REFERENCES `offers`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`assigned_to`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "leads_status_check" CHECK(status in ('new', 'contacted', 'converted', 'lost'))
);
--> statement-breakpoint
CREATE INDEX `leads_spa_idx` ON `leads` (`spa_id`,`status`,`created_at`);--> statement-breakpoint
CREATE TABLE `magic_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`token_hash` text NOT NULL,
	`email` text NOT NULL,
	`expires_at` integer NOT NULL,
	`used` integer DEFAULT false NOT NULL,
	`used_at` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `magic_tokens_token_hash_unique` ON `magic_tokens` (`token_hash`);--> statement-breakpoint
CREATE INDEX `magic_tokens_email_idx` ON `magic_tokens` (`email`);--> statement-breakpoint
CREATE TABLE `newsletter_subscribers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`preferences` text,
	`unsubscribe_token` text NOT NULL,
	`subscribed` integer DEFAULT false NOT NULL,
	`subscribed_at` integer,
	`city_id` integer,
	`active` integer DEFAULT true NOT NULL,
	`confirmed_at` integer,
	`unsubscribed_at` integer,
	`source` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_email_unique` ON `newsletter_subscribers` (`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `newsletter_unsubscribe_token_unique` ON `newsletter_subscribers` (`unsubscribe_token`);--> statement-breakpoint
CREATE TABLE `offer_services` (
	`offer_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	PRIMARY KEY(`offer_id`, `service_id`),
	FOREIGN KEY (`offer_id`) REFERENCES `offers`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`service_id`) REFERENCES `services`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `offers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`title` text NOT NULL,
	`slug` text NOT NULL,
	`description` text NOT NULL,
	`original_price_cents` integer NOT NULL,
	`offer_price_cents` integer NOT NULL,
	`savings_cents` integer NOT NULL,
	`valid_from` text,
	`valid_to` text,
	`city_id` integer NOT NULL,
	`spa_id` integer NOT NULL,
	`image_url` text,
	`active` integer DEFAULT true NOT NULL,
	`featured` integer DEFAULT false NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "offers_prices_check" CHECK(offer_price_cents >= 0 and original_price_cents >= offer_price_cents),
	CONSTRAINT "offers_savings_check" CHECK(savings_cents = original_price_cents - offer_price_cents)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `offers_slug_unique` ON `offers` (`slug`);--> statement-breakpoint
CREATE INDEX `offers_listing_idx` ON `offers` (`active`,`featured`,`valid_to`);--> statement-breakpoint
CREATE INDEX `offers_spa_idx` ON `offers` (`spa_id`);--> statement-breakpoint
CREATE TABLE `services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`spa_id` integer NOT NULL,
	`name` text(255) NOT NULL,
	`description` text,
	`price_cents` integer NOT NULL,
	`price_unit` text,
	`duration` integer NOT NULL,
	`category` text NOT NULL,
	`treatment` text,
	`image_url` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "services_price_check" CHECK(price_cents >= 0),
	CONSTRAINT "services_duration_check" CHECK(duration > 0),
	CONSTRAINT "services_name_length_check" CHECK(length(name) between 1 and 255)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `services_spa_name_unique` ON `services` (`spa_id`,`name`);--> statement-breakpoint
CREATE INDEX `services_category_idx` ON `services` (`category`);--> statement-breakpoint
CREATE INDEX `services_treatment_idx` ON `services` (`treatment`,`spa_id`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_user_idx` ON `sessions` (`user_id`);--> statement-breakpoint
CREATE INDEX `sessions_expires_idx` ON `sessions` (`expires_at`);--> statement-breakpoint
CREATE TABLE `site_meta` (
	`id` integer PRIMARY KEY NOT NULL,
	`content_version` integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE `social_media_cache` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`url` text NOT NULL,
	`platform` text NOT NULL,
	`embed_html` text,
	`thumbnail_url` text,
	`title` text,
	`author_name` text,
	`author_url` text,
	`provider_name` text,
	`width` integer,
	`height` integer,
	`fetched_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`active` integer DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `social_media_cache_url_unique` ON `social_media_cache` (`url`);--> statement-breakpoint
CREATE TABLE `spa_photos` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`spa_id` integer NOT NULL,
	`url` text NOT NULL,
	`alt` text DEFAULT '' NOT NULL,
	`position` integer DEFAULT 0 NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `spa_photos_spa_idx` ON `spa_photos` (`spa_id`,`position`);--> statement-breakpoint
CREATE TABLE `spas` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`slug` text NOT NULL,
	`description` text,
	`address` text,
	`phone` text,
	`email` text,
	`website` text,
	`image_url` text,
	`booking_link` text,
	`social_feed_url` text,
	`social_platform` text,
	`video_url` text,
	`hours` text,
	`tier` text DEFAULT 'FREE' NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`featured` integer DEFAULT false NOT NULL,
	`verified` integer DEFAULT false NOT NULL,
	`owner_id` integer,
	`city_id` integer NOT NULL,
	`stripe_customer_id` text,
	`stripe_subscription_id` text,
	`subscription_status` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`owner_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`city_id`) REFERENCES `cities`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "spas_tier_check" CHECK(tier in ('FREE', 'PREMIUM', 'ELITE'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `spas_slug_unique` ON `spas` (`slug`);--> statement-breakpoint
CREATE INDEX `spas_city_listing_idx` ON `spas` (`city_id`,`active`,`tier`,`created_at`);--> statement-breakpoint
CREATE INDEX `spas_listing_idx` ON `spas` (`active`,`tier`,`created_at`);--> statement-breakpoint
CREATE INDEX `spas_owner_idx` ON `spas` (`owner_id`);--> statement-breakpoint
CREATE TABLE `subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`spa_id` integer NOT NULL,
	`stripe_subscription_id` text NOT NULL,
	`stripe_customer_id` text NOT NULL,
	`tier` text NOT NULL,
	`status` text NOT NULL,
	`current_period_start` integer,
	`current_period_end` integer,
	`cancel_at_period_end` integer DEFAULT false NOT NULL,
	`canceled_at` integer,
	`trial_start` integer,
	`trial_end` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "subscriptions_tier_check" CHECK(tier in ('PREMIUM', 'ELITE')),
	CONSTRAINT "subscriptions_status_check" CHECK(status in ('active', 'past_due', 'canceled', 'unpaid'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `subscriptions_stripe_id_unique` ON `subscriptions` (`stripe_subscription_id`);--> statement-breakpoint
CREATE INDEX `subscriptions_spa_idx` ON `subscriptions` (`spa_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`email` text NOT NULL,
	`first_name` text,
	`last_name` text,
	`profile_image_url` text,
	`role` text DEFAULT 'client' NOT NULL,
	`stripe_customer_id` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	CONSTRAINT "users_role_check" CHECK(role in ('client', 'owner', 'admin'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_email_unique` ON `users` (`email`);