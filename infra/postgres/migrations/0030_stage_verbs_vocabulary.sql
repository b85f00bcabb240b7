-- Up Migration
-- "when an opp enters Negotiation", "a deal progresses to Proposal", "an opportunity is marked Closed Won"
-- (docs/decisions.md, 2026-12-02, thirty-first session): "enter" and "progress" join the verbs of a deal's and an
-- opportunity's stage change, and "mark" the opportunity's as it was the deal's. 0012 holds the same rows for a database
-- set up anew; this brings an existing one to them.
UPDATE triggers AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('hubspot.deal_stage_changed', '{"verbs":["move","change","close","win","lose","reach","advance","mark","enter","progress"],"objects":["deal","stage","pipeline"],"aliases":["a deal moves stage","a deal is won","closed won","deal closes"]}'::jsonb),
  ('salesforce.opportunity_stage_changed', '{"verbs":["move","change","close","win","lose","reach","advance","mark","enter","progress"],"objects":["opportunity","opp","stage"],"aliases":["an opportunity moves stage","an opp is won"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE triggers AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('hubspot.deal_stage_changed', '{"verbs":["move","change","close","win","lose","reach","advance","mark"],"objects":["deal","stage","pipeline"],"aliases":["a deal moves stage","a deal is won","closed won","deal closes"]}'::jsonb),
  ('salesforce.opportunity_stage_changed', '{"verbs":["move","change","close","win","lose","reach","advance"],"objects":["opportunity","opp","stage"],"aliases":["an opportunity moves stage","an opp is won"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
