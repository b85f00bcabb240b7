-- Up Migration
-- A consultation, a lesson or a class is on the calendar, and freeing its slot cancels it; an enquirer put into the
-- CRM is a new contact; a start date added to a hire's record updates it (docs/decisions.md, 2026-11-29, late
-- night): "consult", "consultation", "lesson" and "class" join google-calendar.create_event's and cancel_event's
-- objects ("visit" and "slot" cancel_event's too, with "free the slot"), "put" and "enquirer" hubspot.create_contact's,
-- and "add", "fill in" and "start date" bamboohr.update_employee's. 0012 holds the same rows for a database set up
-- anew; this brings an existing one to them.
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('google-calendar.create_event', '{"verbs":["book","schedule","reserve","arrange","set up","plan","add","put","block","hold","invite","organise"],"objects":["meeting","event","appointment","call","calendar","invite","invitation","session","slot","room","visit","booking","1:1","sync","kickoff","reservation","consult","consultation","lesson","class"],"aliases":["put on the calendar","add to the calendar","book a meeting","send an invite","set up a call","block time","reserve a room","create a booking"]}'::jsonb),
  ('google-calendar.cancel_event', '{"verbs":["cancel","call off","remove","delete","drop","decline"],"objects":["meeting","event","appointment","call","booking","reservation","session","consult","consultation","visit","lesson","class","slot"],"aliases":["cancel the meeting","take off the calendar","call off the appointment","free up the room","free the slot","free up the slot"]}'::jsonb),
  ('hubspot.create_contact', '{"verbs":["create","add","capture","register","save","enter","record","import","log","put"],"objects":["contact","lead","prospect","person","signup","registration","crm","enquirer"],"aliases":["add to the crm","create a contact","save as a contact","add them to the crm","put into the crm as a contact"]}'::jsonb),
  ('bamboohr.update_employee', '{"verbs":["update","change","edit","set","record","log","mark","adjust","correct","add","fill in"],"objects":["employee","record","profile","time off","leave","pto","vacation","holiday","title","salary","manager","hr record","start date"],"aliases":["update the employee record","record the time off","log the leave","change the title","add to their record"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;

-- Down Migration
UPDATE capabilities AS t SET vocabulary = v.vocabulary FROM (VALUES
  ('google-calendar.create_event', '{"verbs":["book","schedule","reserve","arrange","set up","plan","add","put","block","hold","invite","organise"],"objects":["meeting","event","appointment","call","calendar","invite","invitation","session","slot","room","visit","booking","1:1","sync","kickoff","reservation"],"aliases":["put on the calendar","add to the calendar","book a meeting","send an invite","set up a call","block time","reserve a room","create a booking"]}'::jsonb),
  ('google-calendar.cancel_event', '{"verbs":["cancel","call off","remove","delete","drop","decline"],"objects":["meeting","event","appointment","call","booking","reservation","session"],"aliases":["cancel the meeting","take off the calendar","call off the appointment","free up the room"]}'::jsonb),
  ('hubspot.create_contact', '{"verbs":["create","add","capture","register","save","enter","record","import","log"],"objects":["contact","lead","prospect","person","signup","registration","crm"],"aliases":["add to the crm","create a contact","save as a contact","add them to the crm"]}'::jsonb),
  ('bamboohr.update_employee', '{"verbs":["update","change","edit","set","record","log","mark","adjust","correct"],"objects":["employee","record","profile","time off","leave","pto","vacation","holiday","title","salary","manager","hr record"],"aliases":["update the employee record","record the time off","log the leave","change the title"]}'::jsonb)
) AS v (id, vocabulary) WHERE t.id = v.id;
