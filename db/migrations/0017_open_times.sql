CREATE TABLE `clinician_time_off` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`clinician_id` integer NOT NULL,
	`first_day` text NOT NULL,
	`last_day` text NOT NULL,
	`note` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	FOREIGN KEY (`clinician_id`) REFERENCES `clinicians`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "clinician_time_off_order_check" CHECK(last_day >= first_day),
	CONSTRAINT "clinician_time_off_note_check" CHECK(note is null or length(note) <= 100)
);
--> statement-breakpoint
CREATE INDEX `clinician_time_off_idx` ON `clinician_time_off` (`clinician_id`,`last_day`);--> statement-breakpoint
CREATE TABLE `spa_date_hours` (
	`spa_id` integer NOT NULL,
	`date` text NOT NULL,
	`ranges` text NOT NULL,
	`note` text,
	`created_at` integer DEFAULT (unixepoch('subsec') * 1000) NOT NULL,
	PRIMARY KEY(`spa_id`, `date`),
	FOREIGN KEY (`spa_id`) REFERENCES `spas`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "spa_date_hours_note_check" CHECK(note is null or length(note) <= 100)
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `ends_at` integer;--> statement-breakpoint
ALTER TABLE `bookings` ADD `buffer_minutes` integer DEFAULT 0 NOT NULL CHECK (buffer_minutes between 0 and 240);--> statement-breakpoint
ALTER TABLE `bookings` ADD `clinician_id` integer REFERENCES clinicians(id) ON DELETE SET NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `room` integer CHECK (room is null or room >= 1);--> statement-breakpoint
ALTER TABLE `bookings` ADD `booked_via` text DEFAULT 'request' NOT NULL CHECK (booked_via in ('request', 'instant', 'hold'));--> statement-breakpoint
CREATE INDEX `bookings_spa_time_idx` ON `bookings` (`spa_id`,`scheduled_at`);--> statement-breakpoint
CREATE INDEX `bookings_clinician_time_idx` ON `bookings` (`clinician_id`,`scheduled_at`);--> statement-breakpoint
ALTER TABLE `clinicians` ADD `working_hours` text;--> statement-breakpoint
ALTER TABLE `services` ADD `bookable_online` integer DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `buffer_after_minutes` integer DEFAULT 0 NOT NULL CHECK (buffer_after_minutes between 0 and 240);--> statement-breakpoint
ALTER TABLE `spas` ADD `opening_hours` text;--> statement-breakpoint
ALTER TABLE `spas` ADD `hours_note` text;--> statement-breakpoint
ALTER TABLE `spas` ADD `booking_mode` text DEFAULT 'none' NOT NULL CHECK (booking_mode in ('none', 'instant', 'request'));--> statement-breakpoint
ALTER TABLE `spas` ADD `min_notice_minutes` integer DEFAULT 120 NOT NULL CHECK (min_notice_minutes between 0 and 20160);--> statement-breakpoint
ALTER TABLE `spas` ADD `booking_horizon_days` integer DEFAULT 60 NOT NULL CHECK (booking_horizon_days between 1 and 365);--> statement-breakpoint
ALTER TABLE `spas` ADD `slot_step_minutes` integer DEFAULT 15 NOT NULL CHECK (slot_step_minutes in (5, 10, 15, 20, 30, 60));--> statement-breakpoint
ALTER TABLE `spas` ADD `treatment_rooms` integer CHECK (treatment_rooms is null or treatment_rooms between 1 and 50);--> statement-breakpoint
-- The old free-text hours become data (issue 24). What reads as one range a
-- day, 'H:MM AM – H:MM PM' (the shape every listing was written in, with an en
-- dash or a hyphen), or is empty, becomes ranges; a spa with any day that does
-- not read so keeps its whole week as a note ('Mon: ...; Tue: ...') and no hours
-- data, and its owner is asked to set them (src/lib/opening-hours.ts parseDayText
-- reads the same shapes; db/migrations/open-times.test.ts holds the two together).
CREATE TEMP TABLE old_hours AS
WITH days AS (
  SELECT s.id AS spa_id, d.key AS day, d.value AS text, replace(trim(coalesce(d.value, '')), ' - ', ' – ') AS t
  FROM spas s, json_each(s.hours) d
  WHERE s.hours IS NOT NULL
),
ends AS (
  SELECT spa_id, day, text, t,
    CASE WHEN instr(t, ' – ') > 0 THEN trim(substr(t, 1, instr(t, ' – ') - 1)) END AS t1,
    CASE WHEN instr(t, ' – ') > 0 THEN trim(substr(t, instr(t, ' – ') + 3)) END AS t2
  FROM days
),
clocks AS (
  SELECT spa_id, day, text, t,
    CASE WHEN t1 GLOB '[1-9]:[0-5][0-9] [AP]M' OR t1 GLOB '1[0-2]:[0-5][0-9] [AP]M'
      THEN printf('%02d:%s', (cast(substr(t1, 1, instr(t1, ':') - 1) AS integer) % 12) + (CASE WHEN substr(t1, -2) = 'PM' THEN 12 ELSE 0 END), substr(t1, instr(t1, ':') + 1, 2)) END AS opens,
    CASE WHEN t2 GLOB '[1-9]:[0-5][0-9] [AP]M' OR t2 GLOB '1[0-2]:[0-5][0-9] [AP]M'
      THEN printf('%02d:%s', (cast(substr(t2, 1, instr(t2, ':') - 1) AS integer) % 12) + (CASE WHEN substr(t2, -2) = 'PM' THEN 12 ELSE 0 END), substr(t2, instr(t2, ':') + 1, 2)) END AS closes
  FROM ends
)
SELECT spa_id, day, text,
  CASE WHEN t = '' OR lower(t) = 'closed' THEN '[]'
       WHEN opens IS NOT NULL AND closes IS NOT NULL AND closes > opens THEN json_array(json_array(opens, closes)) END AS ranges,
  CASE day WHEN 'mon' THEN 1 WHEN 'tue' THEN 2 WHEN 'wed' THEN 3 WHEN 'thu' THEN 4 WHEN 'fri' THEN 5 WHEN 'sat' THEN 6 WHEN 'sun' THEN 7 ELSE 8 END AS position
FROM clocks;
--> statement-breakpoint
UPDATE spas SET opening_hours = json_object(
  'mon', json(coalesce((SELECT ranges FROM old_hours o WHERE o.spa_id = spas.id AND o.day = 'mon'), '[]')),
  'tue', json(coalesce((SELECT ranges FROM old_hours o WHERE o.spa_id = spas.id AND o.day = 'tue'), '[]')),
  'wed', json(coalesce((SELECT ranges FROM old_hours o WHERE o.spa_id = spas.id AND o.day = 'wed'), '[]')),
  'thu', json(coalesce((SELECT ranges FROM old_hours o WHERE o.spa_id = spas.id AND o.day = 'thu'), '[]')),
  'fri', json(coalesce((SELECT ranges FROM old_hours o WHERE o.spa_id = spas.id AND o.day = 'fri'), '[]')),
  'sat', json(coalesce((SELECT ranges FROM old_hours o WHERE o.spa_id = spas.id AND o.day = 'sat'), '[]')),
  'sun', json(coalesce((SELECT ranges FROM old_hours o WHERE o.spa_id = spas.id AND o.day = 'sun'), '[]')))
WHERE EXISTS (SELECT 1 FROM old_hours o WHERE o.spa_id = spas.id)
  AND NOT EXISTS (SELECT 1 FROM old_hours o WHERE o.spa_id = spas.id AND (o.ranges IS NULL OR o.position = 8));
--> statement-breakpoint
UPDATE spas SET hours_note = (
  SELECT group_concat(upper(substr(day, 1, 1)) || substr(day, 2) || ': ' || coalesce(text, 'Closed'), '; ' ORDER BY position)
  FROM old_hours o WHERE o.spa_id = spas.id)
WHERE EXISTS (SELECT 1 FROM old_hours o WHERE o.spa_id = spas.id AND (o.ranges IS NULL OR o.position = 8));
--> statement-breakpoint
DROP TABLE old_hours;
--> statement-breakpoint
-- No double booking (issue 24), whatever writes the row: an open-time booking
-- (one with an end) that is pending or confirmed may not overlap, buffers
-- included, another such booking of the same clinician, or of the same room of
-- the same spa. src/lib/server/availability/book.ts checks first, inside one
-- immediate transaction, and answers 409; this is the floor under it.
CREATE TRIGGER bookings_no_overlap_insert AFTER INSERT ON bookings
WHEN NEW.ends_at IS NOT NULL AND NEW.status IN ('pending', 'confirmed') AND (NEW.clinician_id IS NOT NULL OR NEW.room IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'slot_taken: that clinician or room is booked at that time')
  WHERE EXISTS (
    SELECT 1 FROM bookings b
    WHERE b.id <> NEW.id AND b.status IN ('pending', 'confirmed') AND b.ends_at IS NOT NULL
      AND b.scheduled_at < NEW.ends_at + NEW.buffer_minutes * 60000
      AND b.ends_at + b.buffer_minutes * 60000 > NEW.scheduled_at
      AND ((NEW.clinician_id IS NOT NULL AND b.clinician_id = NEW.clinician_id) OR (NEW.room IS NOT NULL AND b.spa_id = NEW.spa_id AND b.room = NEW.room)));
END;
--> statement-breakpoint
-- A new start moves the end with it (the owner's reschedule sets only the start).
CREATE TRIGGER bookings_end_follows_start AFTER UPDATE OF scheduled_at ON bookings
WHEN OLD.ends_at IS NOT NULL AND NEW.scheduled_at IS NOT NULL AND NEW.scheduled_at <> OLD.scheduled_at AND NEW.ends_at = OLD.ends_at
BEGIN
  UPDATE bookings SET ends_at = NEW.scheduled_at + (OLD.ends_at - OLD.scheduled_at) WHERE id = NEW.id;
END;
--> statement-breakpoint
-- The same rule on every change of time, status, clinician or room. While the
-- start has moved and the end not yet (the trigger above runs next), the end
-- is taken as the moved one.
CREATE TRIGGER bookings_no_overlap_update AFTER UPDATE OF scheduled_at, ends_at, buffer_minutes, status, clinician_id, room ON bookings
WHEN NEW.ends_at IS NOT NULL AND NEW.scheduled_at IS NOT NULL AND NEW.status IN ('pending', 'confirmed') AND (NEW.clinician_id IS NOT NULL OR NEW.room IS NOT NULL)
BEGIN
  SELECT RAISE(ABORT, 'slot_taken: that clinician or room is booked at that time')
  WHERE EXISTS (
    SELECT 1 FROM bookings b
    WHERE b.id <> NEW.id AND b.status IN ('pending', 'confirmed') AND b.ends_at IS NOT NULL
      AND b.scheduled_at < (CASE WHEN NEW.ends_at = OLD.ends_at AND NEW.scheduled_at <> OLD.scheduled_at
                                 THEN NEW.scheduled_at + (OLD.ends_at - OLD.scheduled_at) ELSE NEW.ends_at END) + NEW.buffer_minutes * 60000
      AND b.ends_at + b.buffer_minutes * 60000 > NEW.scheduled_at
      AND ((NEW.clinician_id IS NOT NULL AND b.clinician_id = NEW.clinician_id) OR (NEW.room IS NOT NULL AND b.spa_id = NEW.spa_id AND b.room = NEW.room)));
END;
