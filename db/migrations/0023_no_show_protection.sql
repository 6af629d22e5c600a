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
	CONSTRAINT "audit_log_action_check" CHECK(action in ('approve', 'reject', 'activate', 'deactivate', 'verify', 'unverify', 'feature', 'unfeature', 'rebuild', 'add-admin', 'check-licence', 'uncheck-licence', 'keep-review', 'remove-review', 'release-review', 'refund-fee'))
);
--> statement-breakpoint
INSERT INTO `__new_audit_log`("id", "actor_id", "actor_email", "action", "target", "detail", "at") SELECT "id", "actor_id", "actor_email", "action", "target", "detail", "at" FROM `audit_log`;--> statement-breakpoint
DROP TABLE `audit_log`;--> statement-breakpoint
ALTER TABLE `__new_audit_log` RENAME TO `audit_log`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `audit_log_at_idx` ON `audit_log` (`at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target`,`at`);--> statement-breakpoint
DROP INDEX `booking_payments_one_refund`;--> statement-breakpoint
DROP INDEX `booking_payments_intent_unique`;--> statement-breakpoint
ALTER TABLE `booking_payments` ADD `refund_of` integer REFERENCES booking_payments(id);--> statement-breakpoint
CREATE UNIQUE INDEX `booking_payments_one_intent_refund` ON `booking_payments` (`stripe_payment_intent_id`) WHERE kind = 'refund' and refund_of is null and status <> 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX `booking_payments_one_refund` ON `booking_payments` (`refund_of`) WHERE kind = 'refund' and refund_of is not null and status <> 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX `booking_payments_intent_unique` ON `booking_payments` (`stripe_payment_intent_id`,`kind`) WHERE kind <> 'refund';--> statement-breakpoint
ALTER TABLE `bookings` ADD `protection` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `secure_status` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `policy_price_cents` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `policy_window_hours` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `deposit_cents` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `late_cancel_fee_cents` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `no_show_fee_cents` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `stripe_customer_id` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `stripe_setup_intent_id` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `stripe_payment_method_id` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `no_show_at` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `late_cancelled_at` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `fee_decision` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `fee_decided_at` integer;--> statement-breakpoint
CREATE INDEX `bookings_secure_idx` ON `bookings` (`secure_status`,`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_setup_intent_unique` ON `bookings` (`stripe_setup_intent_id`);--> statement-breakpoint
ALTER TABLE `spas` ADD `no_show_policy` text;