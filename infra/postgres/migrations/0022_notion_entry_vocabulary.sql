-- Up Migration
-- A record entered in a Notion database is a page created there (docs/decisions.md, 2026-11-30): "enter" joins
-- notion.create_page's verbs ("the applicant shall be entered as a new record in the Notion Students database").
-- 0012 holds the same row for a database set up anew; this brings an existing one to it.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('notion.create_page', '{"verbs":["create","write","draft","document","publish","compile","prepare","put together","make","add","write up","log","record","file","enter"],"objects":["page","doc","document","notes","wiki","report","summary","writeup","minutes","checklist","knowledge base","newsletter","brief","entry","card","database","board","table","tracker"],"aliases":["write up","create a page","put together a doc","add a page to the wiki","document in notion","log it in the tracker","add a card to the board"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('notion.create_page', '{"verbs":["create","write","draft","document","publish","compile","prepare","put together","make","add","write up","log","record","file"],"objects":["page","doc","document","notes","wiki","report","summary","writeup","minutes","checklist","knowledge base","newsletter","brief","entry","card","database","board","table","tracker"],"aliases":["write up","create a page","put together a doc","add a page to the wiki","document in notion","log it in the tracker","add a card to the board"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
