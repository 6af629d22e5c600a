CREATE TABLE `booking_payments` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`booking_id` integer NOT NULL,
	`kind` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`stripe_payment_intent_id` text,
	`stripe_refund_id` text,
	`idempotency_key` text NOT NULL,
	`reason` text,
	`failure_code` text,
	`failure_message` text,
	`actor_id` integer,
	`actor_role` text NOT NULL,
	`event_created` integer,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	`updated_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`booking_id`) REFERENCES `bookings`(`id`) ON UPDATE no action ON DELETE restrict,
	FOREIGN KEY (`actor_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE set null,
	CONSTRAINT "booking_payments_kind_check" CHECK(kind in ('deposit', 'late_cancel_fee', 'no_show_fee', 'refund')),
	CONSTRAINT "booking_payments_status_check" CHECK(status in ('pending', 'requires_action', 'succeeded', 'failed', 'canceled')),
	CONSTRAINT "booking_payments_actor_check" CHECK(actor_role in ('client', 'owner', 'admin', 'system')),
	CONSTRAINT "booking_payments_amount_check" CHECK(amount_cents > 0),
	CONSTRAINT "booking_payments_reason_length_check" CHECK(reason is null or length(reason) <= 500)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `booking_payments_idempotency_unique` ON `booking_payments` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `booking_payments_booking_idx` ON `booking_payments` (`booking_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `booking_payments_created_idx` ON `booking_payments` (`created_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `booking_payments_one_deposit` ON `booking_payments` (`booking_id`) WHERE kind = 'deposit' and status not in ('failed', 'canceled');--> statement-breakpoint
CREATE UNIQUE INDEX `booking_payments_one_fee` ON `booking_payments` (`booking_id`) WHERE kind in ('late_cancel_fee', 'no_show_fee') and status not in ('failed', 'canceled');--> statement-breakpoint
CREATE UNIQUE INDEX `booking_payments_one_refund` ON `booking_payments` (`stripe_payment_intent_id`) WHERE kind = 'refund' and status <> 'failed';--> statement-breakpoint
CREATE UNIQUE INDEX `booking_payments_intent_unique` ON `booking_payments` (`stripe_payment_intent_id`) WHERE kind <> 'refund';--> statement-breakpoint
ALTER TABLE `checkout_holds` ADD `release_token_hash` text;