-- Up Migration
-- "create the client in Stripe (only if he is not existing there already)" makes a Stripe customer (docs/decisions.md,
-- 2026-12-01): "client" joins stripe.create_customer's objects. 0012 holds the same row for a database set up anew;
-- this brings an existing one to it.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('stripe.create_customer', '{"verbs":["create","add","set up","register","make"],"objects":["customer","client","billing account","subscriber","member"],"aliases":["create a customer in stripe","set up billing for"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('stripe.create_customer', '{"verbs":["create","add","set up","register","make"],"objects":["customer","billing account","subscriber","member"],"aliases":["create a customer in stripe","set up billing for"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
