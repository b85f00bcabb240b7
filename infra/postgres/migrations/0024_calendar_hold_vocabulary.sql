-- Up Migration
-- A hold on a calendar is cancelled like any booking (docs/decisions.md, 2026-11-30): "hold" joins
-- google-calendar.cancel_event's objects and "release the hold" its aliases ("deposit unpaid after 72h → cancel the hold").
-- 0012 holds the same row for a database set up anew; this brings an existing one to it.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('google-calendar.cancel_event', '{"verbs":["cancel","call off","remove","delete","drop","decline"],"objects":["meeting","event","appointment","call","booking","reservation","session","consult","consultation","visit","lesson","class","slot","hold"],"aliases":["cancel the meeting","take off the calendar","call off the appointment","free up the room","free the slot","free up the slot","release the hold"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('google-calendar.cancel_event', '{"verbs":["cancel","call off","remove","delete","drop","decline"],"objects":["meeting","event","appointment","call","booking","reservation","session","consult","consultation","visit","lesson","class","slot"],"aliases":["cancel the meeting","take off the calendar","call off the appointment","free up the room","free the slot","free up the slot"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
