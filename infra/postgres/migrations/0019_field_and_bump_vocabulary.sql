-- Up Migration
-- A quoted field set to a value is an update of the record at hand, and a ticket bumped or prioritised is a ticket
-- updated (docs/decisions.md, 2026-11-29): "field" and "column" join notion.update_database_item's objects, "field"
-- hubspot.update_contact's, and "bump", "prioritise" and "prioritize" zendesk.ticket_updated's verbs. 0012 holds
-- the same rows for a database set up anew; this brings an existing one to them.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('hubspot.update_contact', '{"verbs":["update","enrich","edit","change","set","note","log","record","tag","mark"],"objects":["contact","note","property","field","record","lifecycle stage","lead status","activity","timeline","crm"],"aliases":["update the contact","add a note to the contact","log on the contact","enrich the record"]}'::jsonb),
  ('notion.update_database_item', '{"verbs":["update","edit","change","set","mark","tick","check off","fill in","track","flip","move"],"objects":["row","database","item","entry","tracker","record","board","table","status","roadmap","list","field","column"],"aliases":["update the tracker","mark the row","tick off the checklist item","update the database"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
UPDATE triggers AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('zendesk.ticket_updated', '{"verbs":["update","change","reopen","solve","escalate","assign","mark","bump","prioritise","prioritize"],"objects":["ticket","case","status","priority"],"aliases":["a ticket is updated","a ticket changes status","a ticket is reopened"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('hubspot.update_contact', '{"verbs":["update","enrich","edit","change","set","note","log","record","tag","mark"],"objects":["contact","note","property","record","lifecycle stage","lead status","activity","timeline","crm"],"aliases":["update the contact","add a note to the contact","log on the contact","enrich the record"]}'::jsonb),
  ('notion.update_database_item', '{"verbs":["update","edit","change","set","mark","tick","check off","fill in","track","flip","move"],"objects":["row","database","item","entry","tracker","record","board","table","status","roadmap","list"],"aliases":["update the tracker","mark the row","tick off the checklist item","update the database"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
UPDATE triggers AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('zendesk.ticket_updated', '{"verbs":["update","change","reopen","solve","escalate","assign","mark"],"objects":["ticket","case","status","priority"],"aliases":["a ticket is updated","a ticket changes status","a ticket is reopened"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
