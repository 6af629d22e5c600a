-- No-show protection (issue 25, docs/decisions/0030): the floor under the
-- rules the application checks. Triggers rather than CHECKs, so the bookings
-- table (and its triggers) is not rebuilt, and drizzle's migrations (0020,
-- 0021) can be regenerated on their own.
--
-- A booking's policy as stored: known values; a deposit or fee is more than
-- nothing and never more than the treatment's price at booking.
CREATE TRIGGER bookings_protection_insert BEFORE INSERT ON bookings
BEGIN
  SELECT RAISE(ABORT, 'protection_invalid: a booking''s deposit or fee must be more than 0 and at most the price')
  WHERE NEW.protection NOT IN ('none', 'card', 'deposit')
     OR (NEW.secure_status IS NOT NULL AND NEW.secure_status NOT IN ('awaiting', 'secured', 'expired'))
     OR (NEW.fee_decision IS NOT NULL AND NEW.fee_decision NOT IN ('charged', 'waived'))
     OR (NEW.protection <> 'none' AND (NEW.policy_price_cents IS NULL OR NEW.policy_price_cents <= 0 OR NEW.policy_window_hours IS NULL OR NEW.secure_status IS NULL))
     OR (NEW.protection = 'deposit' AND NEW.deposit_cents IS NULL)
     OR (NEW.protection = 'none' AND (NEW.deposit_cents IS NOT NULL OR NEW.late_cancel_fee_cents IS NOT NULL OR NEW.no_show_fee_cents IS NOT NULL))
     OR (NEW.deposit_cents IS NOT NULL AND (NEW.deposit_cents <= 0 OR NEW.deposit_cents > NEW.policy_price_cents))
     OR (NEW.late_cancel_fee_cents IS NOT NULL AND (NEW.late_cancel_fee_cents <= 0 OR NEW.late_cancel_fee_cents > NEW.policy_price_cents))
     OR (NEW.no_show_fee_cents IS NOT NULL AND (NEW.no_show_fee_cents <= 0 OR NEW.no_show_fee_cents > NEW.policy_price_cents));
END;
--> statement-breakpoint
-- What was agreed at booking never changes afterwards.
CREATE TRIGGER bookings_protection_fixed BEFORE UPDATE OF protection, policy_price_cents, policy_window_hours, deposit_cents, late_cancel_fee_cents, no_show_fee_cents ON bookings
WHEN NEW.protection IS NOT OLD.protection OR NEW.policy_price_cents IS NOT OLD.policy_price_cents OR NEW.policy_window_hours IS NOT OLD.policy_window_hours
  OR NEW.deposit_cents IS NOT OLD.deposit_cents OR NEW.late_cancel_fee_cents IS NOT OLD.late_cancel_fee_cents OR NEW.no_show_fee_cents IS NOT OLD.no_show_fee_cents
BEGIN
  SELECT RAISE(ABORT, 'protection_fixed: the policy a booking was made under cannot change');
END;
--> statement-breakpoint
CREATE TRIGGER bookings_protection_states BEFORE UPDATE OF secure_status, fee_decision ON bookings
WHEN (NEW.secure_status IS NOT NULL AND NEW.secure_status NOT IN ('awaiting', 'secured', 'expired'))
  OR (NEW.fee_decision IS NOT NULL AND NEW.fee_decision NOT IN ('charged', 'waived'))
  OR (OLD.fee_decision IS NOT NULL AND NEW.fee_decision IS NOT OLD.fee_decision)
BEGIN
  SELECT RAISE(ABORT, 'protection_invalid: a fee is decided once');
END;
--> statement-breakpoint
-- The ledger: a deposit is the booking's deposit; a fee is at most the
-- booking's fee of that kind; a refund of a ledger row is of that row's
-- payment intent, at most that row, and all live refunds of one intent
-- together are at most what it charged.
CREATE TRIGGER booking_payments_amounts BEFORE INSERT ON booking_payments
BEGIN
  SELECT RAISE(ABORT, 'money_invalid: more than the booking allows')
  WHERE (NEW.kind = 'deposit' AND NEW.amount_cents IS NOT (SELECT deposit_cents FROM bookings WHERE id = NEW.booking_id))
     OR (NEW.kind = 'late_cancel_fee' AND NEW.amount_cents > coalesce((SELECT late_cancel_fee_cents FROM bookings WHERE id = NEW.booking_id), 0))
     OR (NEW.kind = 'no_show_fee' AND NEW.amount_cents > coalesce((SELECT no_show_fee_cents FROM bookings WHERE id = NEW.booking_id), 0))
     OR (NEW.kind <> 'refund' AND NEW.refund_of IS NOT NULL)
     OR (NEW.kind = 'refund' AND NEW.refund_of IS NOT NULL AND (
           NEW.stripe_payment_intent_id IS NOT (SELECT stripe_payment_intent_id FROM booking_payments WHERE id = NEW.refund_of)
        OR NEW.amount_cents > (SELECT amount_cents FROM booking_payments WHERE id = NEW.refund_of AND kind <> 'refund')
        OR NEW.amount_cents + coalesce((SELECT sum(amount_cents) FROM booking_payments
                                         WHERE kind = 'refund' AND status <> 'failed' AND stripe_payment_intent_id = NEW.stripe_payment_intent_id), 0)
           > (SELECT max(amount_cents) FROM booking_payments WHERE stripe_payment_intent_id = NEW.stripe_payment_intent_id AND kind <> 'refund')));
END;
--> statement-breakpoint
-- A row's money never changes once written; only its state at Stripe does.
CREATE TRIGGER booking_payments_fixed BEFORE UPDATE OF booking_id, kind, amount_cents, idempotency_key ON booking_payments
WHEN NEW.booking_id IS NOT OLD.booking_id OR NEW.kind IS NOT OLD.kind OR NEW.amount_cents IS NOT OLD.amount_cents OR NEW.idempotency_key IS NOT OLD.idempotency_key
BEGIN
  SELECT RAISE(ABORT, 'money_fixed: a ledger row''s amount cannot change');
END;
--> statement-breakpoint
-- A succeeded or refunded row stays so; a late, older event cannot undo it.
CREATE TRIGGER booking_payments_final BEFORE UPDATE OF status ON booking_payments
WHEN OLD.status = 'succeeded' AND NEW.status <> 'succeeded'
BEGIN
  SELECT RAISE(ABORT, 'money_final: a succeeded payment or refund stays succeeded');
END;
