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
	CONSTRAINT "audit_log_action_check" CHECK(action in ('approve', 'reject', 'activate', 'deactivate', 'verify', 'unverify', 'feature', 'unfeature', 'rebuild', 'add-admin', 'check-licence', 'uncheck-licence', 'keep-review', 'remove-review'))
);
--> statement-breakpoint
INSERT INTO `__new_audit_log`("id", "actor_id", "actor_email", "action", "target", "detail", "at") SELECT "id", "actor_id", "actor_email", "action", "target", "detail", "at" FROM `audit_log`;--> statement-breakpoint
DROP TABLE `audit_log`;--> statement-breakpoint
ALTER TABLE `__new_audit_log` RENAME TO `audit_log`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target`,`at`);