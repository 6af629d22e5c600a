-- Custom migration (issue 23, item 2; docs/decisions/0029): what "Verified
-- visit" rests on, in the database.
--
-- A held review is kept as written, like a published one (0014): nothing may
-- change what the client wrote, and an editor decides once.
CREATE TRIGGER review_holds_as_written BEFORE UPDATE OF booking_id, spa_id, rating, body, treatment, author_name, visit_month, writer_network, signals, created_at ON review_holds
BEGIN
  SELECT RAISE(ABORT, 'A review is kept as written and cannot be edited');
END;
--> statement-breakpoint
CREATE TRIGGER review_holds_decided_once BEFORE UPDATE OF decision, decision_reason, decided_by, decided_at, review_id ON review_holds
WHEN OLD.decision IS NOT NULL
BEGIN
  SELECT RAISE(ABORT, 'An editor has already decided this review');
END;
--> statement-breakpoint
-- The badge is a column the spa page shows (0019's comparison gains it).
DROP TRIGGER reviews_content_version_update;
--> statement-breakpoint
CREATE TRIGGER reviews_content_version_update AFTER UPDATE ON reviews
WHEN (OLD.state = 'published' OR NEW.state = 'published')
  AND ((SELECT active FROM spas WHERE id = OLD.spa_id) = 1 OR (SELECT active FROM spas WHERE id = NEW.spa_id) = 1)
  AND (OLD.spa_id, OLD.booking_id, OLD.rating, OLD.body, OLD.treatment, OLD.author_name, OLD.visit_month, OLD.state,
       OLD.reply, OLD.replied_at, OLD.verified_visit, OLD.created_at)
  IS NOT
      (NEW.spa_id, NEW.booking_id, NEW.rating, NEW.body, NEW.treatment, NEW.author_name, NEW.visit_month, NEW.state,
       NEW.reply, NEW.replied_at, NEW.verified_visit, NEW.created_at)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
-- The badge shows only while the visit's payment stands: a refund (or any
-- change of the payment) of a booking behind a published badge republishes.
CREATE TRIGGER bookings_verified_review_payment AFTER UPDATE OF payment_status ON bookings
WHEN OLD.payment_status IS NOT NEW.payment_status
  AND EXISTS (SELECT 1 FROM reviews r JOIN spas s ON s.id = r.spa_id
              WHERE r.booking_id = NEW.id AND r.state = 'published' AND r.verified_visit = 1 AND s.active = 1)
BEGIN UPDATE site_meta SET content_version = content_version + 1 WHERE id = 1; END;
--> statement-breakpoint
-- Reviews written before this rule carry the badge when their visit was paid through the site.
UPDATE reviews SET verified_visit = 1 WHERE booking_id IN (SELECT id FROM bookings WHERE payment_status = 'paid');
