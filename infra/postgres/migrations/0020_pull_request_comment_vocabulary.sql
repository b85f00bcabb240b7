-- Up Migration
-- A second comment added on a pull request is a comment on the pull request (docs/decisions.md, 2026-11-29,
-- night): "add" joins github.comment_pull_request's verbs and "add a comment on the pr" its aliases, so "add a
-- comment asking the author …" after a pull request opened is GitHub's, not Jira's. 0012 holds the same row for a
-- database set up anew; this brings an existing one to it.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('github.comment_pull_request', '{"verbs":["comment","review","note","leave","post","write","flag","remind","add"],"objects":["pull request","pr","review","comment","change","diff","merge request","code"],"aliases":["comment on the pull request","leave a review","post on the pr","add a comment on the pr"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('github.comment_pull_request', '{"verbs":["comment","review","note","leave","post","write","flag","remind"],"objects":["pull request","pr","review","comment","change","diff","merge request","code"],"aliases":["comment on the pull request","leave a review","post on the pr"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
