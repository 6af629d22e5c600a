ALTER TABLE `spas` ADD `claim_email` text;--> statement-breakpoint
CREATE INDEX `spas_claim_email_idx` ON `spas` (`claim_email`);