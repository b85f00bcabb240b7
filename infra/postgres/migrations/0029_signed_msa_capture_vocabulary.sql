-- Up Migration
-- "the MSA comes back fully signed", "capture each one as an expense in QuickBooks" (docs/decisions.md, 2026-12-01):
-- "msa" and "sow" join DocuSign's objects, "capture" the verbs of quickbooks.record_expense. 0012 holds the same rows
-- for a database set up anew; this brings an existing one to them.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('docusign.send_envelope', '{"verbs":["send","sign","e-sign","countersign","get","collect","request","route"],"objects":["signature","e-signature","contract","agreement","nda","msa","sow","envelope","offer letter","document","form"],"aliases":["send for signature","get it signed","collect signatures","send out for e-signature"]}'::jsonb),
  ('quickbooks.record_expense', '{"verbs":["record","log","enter","book","categorise","categorize","add","track","code","reconcile","capture"],"objects":["expense","receipt","bill","cost","spend","purchase","vendor bill","reimbursement"],"aliases":["record the expense","log the receipt","book the cost","enter the bill"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
UPDATE triggers AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('docusign.envelope_completed', '{"verbs":["sign","complete","countersign","execute","return","come back"],"objects":["envelope","contract","agreement","document","nda","msa","sow","offer letter"],"aliases":["a contract is signed","comes back signed","the envelope is completed"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('docusign.send_envelope', '{"verbs":["send","sign","e-sign","countersign","get","collect","request","route"],"objects":["signature","e-signature","contract","agreement","nda","envelope","offer letter","document","form"],"aliases":["send for signature","get it signed","collect signatures","send out for e-signature"]}'::jsonb),
  ('quickbooks.record_expense', '{"verbs":["record","log","enter","book","categorise","categorize","add","track","code","reconcile"],"objects":["expense","receipt","bill","cost","spend","purchase","vendor bill","reimbursement"],"aliases":["record the expense","log the receipt","book the cost","enter the bill"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
UPDATE triggers AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('docusign.envelope_completed', '{"verbs":["sign","complete","countersign","execute","return","come back"],"objects":["envelope","contract","agreement","document","nda","offer letter"],"aliases":["a contract is signed","comes back signed","the envelope is completed"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
