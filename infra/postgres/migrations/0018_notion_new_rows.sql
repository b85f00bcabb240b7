-- Up Migration
-- A new row of a Notion database is a page created in it (docs/decisions.md, 2026-11-29): logging, recording or
-- filing an item is notion.create_page's vocabulary, no longer notion.update_database_item's. 0012 holds the
-- same rows for a database set up anew; this brings an existing one to them.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('notion.create_page', '{"verbs":["create","write","draft","document","publish","compile","prepare","put together","make","add","write up","log","record","file"],"objects":["page","doc","document","notes","wiki","report","summary","writeup","minutes","checklist","knowledge base","newsletter","brief","entry","card","database","board","table","tracker"],"aliases":["write up","create a page","put together a doc","add a page to the wiki","document in notion","log it in the tracker","add a card to the board"]}'::jsonb),
  ('notion.update_database_item', '{"verbs":["update","edit","change","set","mark","tick","check off","fill in","track","flip","move"],"objects":["row","database","item","entry","tracker","record","board","table","status","roadmap","list"],"aliases":["update the tracker","mark the row","tick off the checklist item","update the database"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('notion.create_page', '{"verbs":["create","write","draft","document","publish","compile","prepare","put together","make","add","write up"],"objects":["page","doc","document","notes","wiki","report","summary","writeup","minutes","checklist","knowledge base","newsletter","brief"],"aliases":["write up","create a page","put together a doc","add a page to the wiki","document in notion"]}'::jsonb),
  ('notion.update_database_item', '{"verbs":["update","edit","change","set","mark","tick","check off","log","record","fill in","track"],"objects":["row","database","item","entry","tracker","record","board","table","status","roadmap","list"],"aliases":["update the tracker","mark the row","tick off the checklist item","update the database"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
