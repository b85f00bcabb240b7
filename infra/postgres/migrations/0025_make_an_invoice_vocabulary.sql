-- Up Migration
-- "Make the invoice in QuickBooks", "make them a Stripe customer" (docs/decisions.md, 2026-11-30): "make" joins the
-- verbs of quickbooks.create_invoice, stripe.create_invoice and stripe.create_customer. 0012 holds the same rows for a
-- database set up anew; this brings an existing one to them.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('quickbooks.create_invoice', '{"verbs":["invoice","bill","create","issue","send","generate","raise","make"],"objects":["invoice","bill","client","customer","retainer"],"aliases":["create an invoice","bill the client","raise an invoice"]}'::jsonb),
  ('stripe.create_invoice', '{"verbs":["invoice","bill","create","issue","send","generate","raise","charge","make"],"objects":["invoice","bill","payment","customer"],"aliases":["send an invoice","bill the customer","raise an invoice"]}'::jsonb),
  ('stripe.create_customer', '{"verbs":["create","add","set up","register","make"],"objects":["customer","billing account","subscriber","member"],"aliases":["create a customer in stripe","set up billing for"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('quickbooks.create_invoice', '{"verbs":["invoice","bill","create","issue","send","generate","raise"],"objects":["invoice","bill","client","customer","retainer"],"aliases":["create an invoice","bill the client","raise an invoice"]}'::jsonb),
  ('stripe.create_invoice', '{"verbs":["invoice","bill","create","issue","send","generate","raise","charge"],"objects":["invoice","bill","payment","customer"],"aliases":["send an invoice","bill the customer","raise an invoice"]}'::jsonb),
  ('stripe.create_customer', '{"verbs":["create","add","set up","register"],"objects":["customer","billing account","subscriber","member"],"aliases":["create a customer in stripe","set up billing for"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
