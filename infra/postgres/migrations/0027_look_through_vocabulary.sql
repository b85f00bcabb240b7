-- Up Migration
-- "look through the office inbox for emails from parents" searches the mail (docs/decisions.md, 2026-12-01): "look
-- through" and "sift through" join gmail.search_email's verbs. 0012 holds the same row for a database set up anew;
-- this brings an existing one to it.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('gmail.search_email', '{"verbs":["search","find","look up","look for","look through","scan","go through","sift through","dig up"],"objects":["email","mail","inbox","mailbox","thread","conversation","message"],"aliases":["search the inbox","find the email","look through the mail","check the inbox"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('gmail.search_email', '{"verbs":["search","find","look up","look for","scan","go through","dig up"],"objects":["email","mail","inbox","mailbox","thread","conversation","message"],"aliases":["search the inbox","find the email","look through the mail","check the inbox"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
