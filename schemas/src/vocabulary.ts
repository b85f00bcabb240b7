import { type Static, Type } from '@sinclair/typebox';

/**
 * What a person says for a capability or a trigger of the catalog, as data beside its schema: the verbs
 * of the action, the things it acts on, and whole phrases people use for it. The offline analyst
 * matches a job description's clauses against this, so a capability added to the catalog with its
 * vocabulary is understood without touching the analyst. Words are lower case and in their base form
 * ("book", "meeting"); phrases may hold several words ("put on the calendar").
 */
export const Vocabulary = Type.Object(
  {
    /** verbs of the action (capabilities) or of what happens (triggers) */
    verbs: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 60 }),
    /** what it acts on, or what the event is about */
    objects: Type.Array(Type.String({ minLength: 1, maxLength: 40 }), { maxItems: 60 }),
    /** whole phrases people use for it */
    aliases: Type.Array(Type.String({ minLength: 1, maxLength: 80 }), { maxItems: 60 }),
  },
  { additionalProperties: false },
);
export type Vocabulary = Static<typeof Vocabulary>;

const v = (verbs: string, objects: string, aliases = ''): Vocabulary => {
  const list = (s: string): string[] =>
    s
      .split(',')
      .map((w) => w.trim())
      .filter(Boolean);
  return { verbs: list(verbs), objects: list(objects), aliases: list(aliases) };
};

/** Vocabulary of the built-in catalog's capabilities, by capability id. */
export const capabilityVocabulary: Readonly<Record<string, Vocabulary>> = {
  'gmail.send_email': v(
    'email, send, write, mail, reply, answer, respond, notify, tell, remind, forward, follow up, contact, reach out',
    'email, e-mail, mail, message, letter, reply, note, reminder, newsletter, inbox',
    'send an email, drop an email, write to, email back, reply by email, send a note, shoot an email, get back to',
  ),
  'gmail.search_email': v(
    'search, find, look up, look for, look through, scan, go through, sift through, dig up',
    'email, mail, inbox, mailbox, thread, conversation, message',
    'search the inbox, find the email, look through the mail, check the inbox',
  ),
  'gmail.label_email': v(
    'label, tag, archive, sort, categorise, categorize, flag, star, file, mark, organise',
    'email, mail, inbox, message, thread, label',
    'label the email, sort the inbox, archive the message, move to a label, tidy the inbox',
  ),
  'google-calendar.create_event': v(
    'book, schedule, reserve, arrange, set up, plan, add, put, block, hold, invite, organise',
    'meeting, event, appointment, call, calendar, invite, invitation, session, slot, room, visit, booking, 1:1, sync, kickoff, reservation, consult, consultation, lesson, class',
    'put on the calendar, add to the calendar, book a meeting, send an invite, set up a call, block time, reserve a room, create a booking',
  ),
  'google-calendar.find_free_slot': v(
    'find, look for, propose, suggest, offer, pick',
    'slot, free slot, time, availability, available, free, opening, window, free time, calendar, gap',
    'find a time, find a free slot, check availability, check who is available, when people are free, a time that works, see who is free',
  ),
  'google-calendar.cancel_event': v(
    'cancel, call off, remove, delete, drop, decline',
    'meeting, event, appointment, call, booking, reservation, session, consult, consultation, visit, lesson, class, slot, hold',
    'cancel the meeting, take off the calendar, call off the appointment, free up the room, free the slot, free up the slot, release the hold',
  ),
  'slack.post_message': v(
    'post, ping, dm, message, notify, tell, alert, announce, share, broadcast, remind, reply, answer, let know, shout out, flag',
    'message, channel, thread, dm, direct message, chat, slack, update, announcement, alert, summary, digest, recap, note',
    'post in the channel, send a dm, ping the team, drop a message, reply in the thread, let the team know, message on slack, post an update',
  ),
  'slack.create_channel': v(
    'create, open, set up, start, spin up, make',
    'channel, room, war room, space, slack channel',
    'create a channel, spin up a channel, open a war room, set up a space for',
  ),
  'slack.invite_user': v(
    'invite, add, bring, include, join',
    'user, member, person, people, teammate, colleague, hire, employee, engineer, on-call, responder, channel',
    'add to the channel, invite to the channel, bring into the channel, add them to slack',
  ),
  'hubspot.create_contact': v(
    'create, add, capture, register, save, enter, record, import, log, put',
    'contact, lead, prospect, person, signup, registration, crm, enquirer',
    'add to the crm, create a contact, save as a contact, add them to the crm, put into the crm as a contact',
  ),
  'hubspot.update_contact': v(
    'update, enrich, edit, change, set, note, log, record, tag, mark',
    'contact, note, property, field, record, lifecycle stage, lead status, activity, timeline, crm',
    'update the contact, add a note to the contact, log on the contact, enrich the record',
  ),
  'hubspot.update_deal': v(
    'update, move, advance, change, set, close, mark, progress',
    'deal, stage, pipeline, amount, forecast, deal stage',
    'move the deal, update the deal stage, mark the deal as won, change the pipeline stage',
  ),
  'hubspot.create_task': v(
    'create, add, assign, set, log, make',
    'task, to-do, todo, follow-up, action item, reminder',
    'create a task, assign a follow-up, add a to-do, set a reminder for the rep',
  ),
  'salesforce.create_lead': v(
    'create, add, capture, register, enter, record, import, log',
    'lead, prospect, inquiry, crm',
    'create a lead, add the lead, log a new lead',
  ),
  'salesforce.update_opportunity': v(
    'update, move, advance, change, set, close, mark, progress',
    'opportunity, opp, stage, close date, amount, forecast, deal',
    'update the opportunity, move the opp, change the close date',
  ),
  'salesforce.create_task': v(
    'create, add, assign, set, log, make, record',
    'task, to-do, todo, follow-up, action item, activity, touchpoint',
    'log a task, log an activity, create a follow-up task',
  ),
  'zendesk.create_ticket': v(
    'open, create, log, raise, file, submit, turn into, convert',
    'ticket, support ticket, case, support request, helpdesk, complaint, incident',
    'open a ticket, file a ticket, log a support case, raise a ticket, turn it into a ticket',
  ),
  'zendesk.reply_ticket': v(
    'reply, respond, answer, comment, acknowledge, resolve',
    'ticket, customer, requester, reply, response, comment, support request',
    'reply on the ticket, answer the ticket, respond to the customer, public reply',
  ),
  'zendesk.update_ticket': v(
    'update, tag, triage, assign, prioritise, prioritize, route, categorise, categorize, close, solve, escalate, label, merge, set',
    'ticket, tag, priority, status, assignee, group, internal note, category, urgency',
    'tag the ticket, set the priority, assign the ticket, add an internal note, route the ticket, close the ticket',
  ),
  'jira.create_issue': v(
    'open, create, file, log, raise, report, submit, track, add',
    'issue, bug, story, task, ticket, defect, epic, jira, backlog',
    'file a bug, open a ticket in jira, create an issue, log a defect, raise a bug, add to the backlog',
  ),
  'jira.transition_issue': v(
    'move, transition, close, resolve, mark, reopen, advance, set, change',
    'issue, ticket, story, bug, status, column, done, in progress',
    'move to done, close the issue, mark as resolved, change the status',
  ),
  'jira.comment_issue': v(
    'comment, note, add, leave, write, post, update',
    'comment, note, issue, ticket, story, bug, update',
    'comment on the issue, leave a note on the ticket, add a comment',
  ),
  'github.create_issue': v(
    'open, create, file, log, raise, report, submit',
    'issue, bug, github issue, feature request, repo',
    'open a github issue, file an issue in the repo, report a bug on github',
  ),
  'github.comment_pull_request': v(
    'comment, review, note, leave, post, write, flag, remind, add',
    'pull request, pr, review, comment, change, diff, merge request, code',
    'comment on the pull request, leave a review, post on the pr, add a comment on the pr',
  ),
  'github.merge_pull_request': v(
    'merge, land, ship',
    'pull request, pr, branch, change, merge request',
    'merge the pull request, land the pr, ship the branch',
  ),
  // a new row of a database is a new page in it: logging, recording or adding an item creates one
  'notion.create_page': v(
    'create, write, draft, document, publish, compile, prepare, put together, make, add, write up, log, record, file, enter',
    'page, doc, document, notes, wiki, report, summary, writeup, minutes, checklist, knowledge base, newsletter, brief, entry, card, database, board, table, tracker',
    'write up, create a page, put together a doc, add a page to the wiki, document in notion, log it in the tracker, add a card to the board',
  ),
  'notion.update_database_item': v(
    'update, edit, change, set, mark, tick, check off, fill in, track, flip, move',
    'row, database, item, entry, tracker, record, board, table, status, roadmap, list, field, column',
    'update the tracker, mark the row, tick off the checklist item, update the database',
  ),
  'stripe.create_invoice': v(
    'invoice, bill, create, issue, send, generate, raise, charge, make',
    'invoice, bill, payment, customer',
    'send an invoice, bill the customer, raise an invoice',
  ),
  'stripe.refund_payment': v(
    'refund, reimburse, reverse, return, credit',
    'refund, payment, charge, money, order, purchase',
    'issue a refund, give the money back, refund the order, process a refund',
  ),
  'stripe.create_customer': v(
    'create, add, set up, register, make',
    'customer, client, billing account, subscriber, member',
    'create a customer in stripe, set up billing for',
  ),
  'docusign.send_envelope': v(
    'send, sign, e-sign, countersign, get, collect, request, route',
    'signature, e-signature, contract, agreement, nda, msa, sow, envelope, offer letter, document, form',
    'send for signature, get it signed, collect signatures, send out for e-signature',
  ),
  'google-drive.create_folder': v(
    'create, make, set up, start, add, open',
    'folder, directory, shared folder, drive, space',
    'create a folder, make a folder, set up a shared folder',
  ),
  'google-drive.upload_file': v(
    'upload, save, store, file, put, keep, archive, attach, copy, back up, drop',
    'file, document, pdf, receipt, attachment, invoice, copy, scan, photo, spreadsheet, report, contract, recording',
    'save to the folder, store in the drive, upload the file, keep a copy, file it in the folder',
  ),
  'google-drive.share_file': v(
    'share, give, grant, send',
    'file, folder, document, doc, link, access, spreadsheet, deck, drive',
    'share the folder, give access to, share the link, grant access',
  ),
  'twilio.send_sms': v(
    'text, sms, send, message, notify, remind, alert, page',
    'sms, text, text message, phone, mobile',
    'send a text, text them, message by sms, send an sms',
  ),
  'quickbooks.create_invoice': v(
    'invoice, bill, create, issue, send, generate, raise, make',
    'invoice, bill, client, customer, retainer',
    'create an invoice, bill the client, raise an invoice',
  ),
  'quickbooks.record_expense': v(
    'record, log, enter, book, categorise, categorize, add, track, code, reconcile, capture',
    'expense, receipt, bill, cost, spend, purchase, vendor bill, reimbursement',
    'record the expense, log the receipt, book the cost, enter the bill',
  ),
  'greenhouse.create_candidate': v(
    'create, add, enter, log, source, import, register',
    'candidate, applicant, referral, prospect, profile',
    'add the candidate, create a candidate profile, log a referral',
  ),
  'greenhouse.schedule_interview': v(
    'schedule, book, set up, arrange, organise, plan, coordinate',
    'interview, screen, phone screen, screening, onsite, panel, call',
    'schedule an interview, book a phone screen, set up the onsite',
  ),
  'greenhouse.move_candidate_stage': v(
    'move, advance, progress, reject, decline, promote, disqualify, update',
    'candidate, applicant, application, stage, pipeline',
    'move to the next stage, reject the candidate, advance the applicant',
  ),
  'bamboohr.create_employee': v(
    'create, add, enter, set up, register, record, onboard',
    'employee, employee record, hire, new hire, starter, profile, hr record',
    'create the employee record, add to the hr system, set up the new hire',
  ),
  'bamboohr.update_employee': v(
    'update, change, edit, set, record, log, mark, adjust, correct, add, fill in',
    'employee, record, profile, time off, leave, pto, vacation, holiday, title, salary, manager, hr record, start date',
    'update the employee record, record the time off, log the leave, change the title, add to their record',
  ),
  'http.request': v(
    'call, hit, invoke, request, query, fetch, post, trigger',
    'api, endpoint, url, http, service, webhook, system',
    'call the api, hit the endpoint, make an http request, trigger the webhook url',
  ),
};

/** Vocabulary of the built-in catalog's triggers, by trigger id: verbs are what happens, objects what it happens to. */
export const triggerVocabulary: Readonly<Record<string, Vocabulary>> = {
  'gmail.new_email': v(
    'arrive, receive, email, land, come in, forward, reply, write, send',
    'email, e-mail, mail, inbox, mailbox, message, reply',
    'an email arrives, someone emails us, a new email, mail comes in, writes to us, arrives by email, comes in by email, lands in the inbox, lands in the mailbox, reaches the inbox, hits the inbox, emailed to us, we get an email, we receive an email',
  ),
  'google-calendar.event_starting': v(
    'start, begin, approach, come up',
    'meeting, event, call, appointment, session, interview, demo',
    'before a meeting, ahead of the call, before each event',
  ),
  'slack.new_message': v(
    'post, ask, send, write, message, request, share, report, raise',
    'message, question, request, post, dm, direct message, thread, channel',
    'someone posts in the channel, a message in slack, asks in the channel, a dm arrives',
  ),
  'slack.mention': v('mention, tag, ping', 'mention, handle', 'someone mentions, when tagged, at-mentions'),
  'hubspot.new_contact': v(
    'create, add, sign up, register, come in, arrive',
    'contact, lead, prospect, signup',
    'a new contact, a new lead in hubspot, someone signs up',
  ),
  'hubspot.deal_stage_changed': v(
    'move, change, close, win, lose, reach, advance, mark, enter, progress',
    'deal, stage, pipeline',
    'a deal moves stage, a deal is won, closed won, deal closes',
  ),
  'salesforce.new_lead': v(
    'create, add, come in, arrive, sign up, register',
    'lead, prospect, inquiry',
    'a new lead, an inbound lead, a lead comes in',
  ),
  'salesforce.opportunity_stage_changed': v(
    'move, change, close, win, lose, reach, advance, mark, enter, progress',
    'opportunity, opp, stage',
    'an opportunity moves stage, an opp is won',
  ),
  'zendesk.new_ticket': v(
    'open, create, submit, arrive, come in, file, raise, log, ask, request',
    'ticket, support ticket, case, support request, complaint',
    'a new ticket, a ticket comes in, a customer opens a ticket',
  ),
  'zendesk.ticket_updated': v(
    'update, change, reopen, solve, escalate, assign, mark, bump, prioritise, prioritize',
    'ticket, case, status, priority',
    'a ticket is updated, a ticket changes status, a ticket is reopened',
  ),
  'jira.issue_created': v(
    'create, open, file, log, raise, report',
    'issue, bug, story, epic, ticket, defect',
    'a new issue, a bug is filed, an issue is created in jira',
  ),
  'jira.issue_transitioned': v(
    'move, transition, resolve, close, complete, finish, reopen, ship, fix',
    'issue, bug, story, ticket, status',
    'an issue moves to done, a bug is resolved, a story is closed',
  ),
  'github.pull_request_opened': v(
    'open, create, submit, raise, push',
    'pull request, pr, merge request, change',
    'a pull request is opened, someone opens a pr',
  ),
  'github.issue_opened': v(
    'open, create, file, raise, report',
    'issue, bug, github issue',
    'an issue is opened on github, someone files an issue in the repo',
  ),
  'notion.page_updated': v(
    'update, change, edit, modify, approve',
    'page, doc, database item, row, entry, tracker, wiki',
    'a page is updated, a row changes, the tracker is edited',
  ),
  'stripe.payment_failed': v(
    'fail, decline, bounce, reject',
    'payment, charge, card, subscription',
    'a payment fails, a card is declined, a charge bounces',
  ),
  'stripe.invoice_paid': v('pay, settle, clear, receive', 'invoice, payment', 'an invoice is paid, payment received'),
  'docusign.envelope_completed': v(
    'sign, complete, countersign, execute, return, come back',
    'envelope, contract, agreement, document, nda, msa, sow, offer letter',
    'a contract is signed, comes back signed, the envelope is completed',
  ),
  'google-drive.file_added': v(
    'add, upload, drop, put, save, land, appear',
    'file, document, pdf, upload, receipt, spreadsheet, doc, folder',
    'a file is added to the folder, someone uploads a document, a file lands in the drive',
  ),
  'twilio.sms_received': v(
    'text, receive, arrive, come in, reply',
    'sms, text, text message, phone, number',
    'someone texts us, an sms arrives, a text comes in',
  ),
  'quickbooks.invoice_overdue': v(
    'overdue, lapse, pass, become overdue',
    'invoice, bill, payment',
    'an invoice is overdue, an invoice is past due, unpaid invoices',
  ),
  'greenhouse.candidate_applied': v(
    'apply, submit, come in, arrive',
    'candidate, applicant, application, cv, resume',
    'a candidate applies, a new application, an applicant comes in',
  ),
  'bamboohr.new_hire': v(
    'hire, join, start, add, create, onboard',
    'hire, new hire, employee, starter, joiner',
    'a new hire is added, someone joins, a new employee starts',
  ),
  'webhook.incoming_webhook': v(
    'submit, fill in, fill out, call, post, send, sign up, register, complete',
    'form, webhook, submission, website, callback, endpoint, signup',
    'someone fills in the form, a form is submitted, the website sends, a webhook fires',
  ),
  'schedule.cron': v('run, repeat', 'schedule, time, day, week, month', 'every monday, each morning, once a week, daily'),
};

/** The vocabulary of a catalog item, when the catalog carries one. */
export const vocabularyOf = (id: string): Vocabulary | undefined => capabilityVocabulary[id] ?? triggerVocabulary[id];
