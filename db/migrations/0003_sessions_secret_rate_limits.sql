CREATE TABLE `rate_limits` (
	`key` text PRIMARY KEY NOT NULL,
	`window_start` integer NOT NULL,
	`count` integer NOT NULL
);
--> statement-breakpoint
-- SQLite needs a default to add a NOT NULL column; an empty hash never matches,
-- so any session made before this change is simply signed out.
ALTER TABLE `sessions` ADD `secret_hash` text NOT NULL DEFAULT '';