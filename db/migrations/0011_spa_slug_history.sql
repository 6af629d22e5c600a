CREATE TABLE `spa_slug_history` (
	`slug` text PRIMARY KEY NOT NULL,
	`spa_id` integer NOT NULL,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `spa_slug_history_spa_idx` ON `spa_slug_history` (`spa_id`);