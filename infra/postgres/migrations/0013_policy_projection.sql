-- Up Migration
-- An org's policy is a projection of its `PolicyChanged` facts (packages/event-store, `org_policies`):
-- the event store folds them and `hireloop replay` rebuilds and compares it; nobody else writes it.
ALTER TABLE org_policies ADD COLUMN changed_by text, ADD COLUMN last_seq bigint;

-- the rows written before: the fact behind each, as a replay would fold it
UPDATE org_policies p
   SET policy = f.payload -> 'policy', changed_by = f.payload ->> 'changedBy', updated_at = f.ts, last_seq = f.seq
  FROM (SELECT DISTINCT ON (org_id) org_id, seq, ts, payload FROM facts WHERE type = 'PolicyChanged' ORDER BY org_id, seq DESC) f
 WHERE f.org_id = p.org_id;
-- a row no fact explains is not the org's policy as recorded: a replay would not have it either
DELETE FROM org_policies WHERE last_seq IS NULL;
INSERT INTO org_policies (org_id, policy, changed_by, updated_at, last_seq)
SELECT DISTINCT ON (org_id) org_id, payload -> 'policy', payload ->> 'changedBy', ts, seq
  FROM facts WHERE type = 'PolicyChanged' ORDER BY org_id, seq DESC
ON CONFLICT (org_id) DO NOTHING;

ALTER TABLE org_policies ALTER COLUMN changed_by SET NOT NULL, ALTER COLUMN last_seq SET NOT NULL;

-- Down Migration
ALTER TABLE org_policies DROP COLUMN last_seq, DROP COLUMN changed_by;
