-- Up Migration
-- "When a Zendesk ticket asks for a refund" is a new ticket (docs/decisions.md, 2026-11-30): "ask" and "request" join
-- zendesk.new_ticket's verbs. 0012 holds the same row for a database set up anew; this brings an existing one to it.
UPDATE triggers AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('zendesk.new_ticket', '{"verbs":["open","create","submit","arrive","come in","file","raise","log","ask","request"],"objects":["ticket","support ticket","case","support request","complaint"],"aliases":["a new ticket","a ticket comes in","a customer opens a ticket"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE triggers AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('zendesk.new_ticket', '{"verbs":["open","create","submit","arrive","come in","file","raise","log"],"objects":["ticket","support ticket","case","support request","complaint"],"aliases":["a new ticket","a ticket comes in","a customer opens a ticket"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
