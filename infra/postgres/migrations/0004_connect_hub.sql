-- Up Migration
-- The Connect Hub's integration directory (ARCHITECTURE §8a): the catalog of providers and their
-- capabilities and triggers, each with the JSON Schema of its inputs or parameters, and the
-- providers each organisation has connected. The connect-hub service is the only writer.
CREATE TABLE providers (
  id          text PRIMARY KEY,
  name        text NOT NULL,
  description text NOT NULL
);

CREATE TABLE capabilities (
  id           text  PRIMARY KEY,
  provider_id  text  NOT NULL REFERENCES providers (id),
  name         text  NOT NULL,
  description  text  NOT NULL,
  risk         text  NOT NULL CHECK (risk IN ('low', 'high')),
  input_schema jsonb NOT NULL CHECK (jsonb_typeof(input_schema) = 'object'),
  UNIQUE (provider_id, name),
  CHECK (id = provider_id || '.' || name)
);

CREATE TABLE triggers (
  id            text  PRIMARY KEY,
  provider_id   text  NOT NULL REFERENCES providers (id),
  name          text  NOT NULL,
  description   text  NOT NULL,
  params_schema jsonb NOT NULL CHECK (jsonb_typeof(params_schema) = 'object'),
  UNIQUE (provider_id, name),
  CHECK (id = provider_id || '.' || name)
);

-- One row, bumped by every statement that changes the catalog: part of the ETag of an org's view,
-- so a later migration that edits the catalog makes every cached view stale without anyone's help.
CREATE TABLE catalog_version (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  version   bigint  NOT NULL
);
INSERT INTO catalog_version (version) VALUES (0);

CREATE FUNCTION connect_hub_bump_catalog_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE catalog_version SET version = version + 1;
  RETURN NULL;
END
$$;
CREATE TRIGGER providers_bump_catalog_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON providers
  FOR EACH STATEMENT EXECUTE FUNCTION connect_hub_bump_catalog_version();
CREATE TRIGGER capabilities_bump_catalog_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON capabilities
  FOR EACH STATEMENT EXECUTE FUNCTION connect_hub_bump_catalog_version();
CREATE TRIGGER triggers_bump_catalog_version AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON triggers
  FOR EACH STATEMENT EXECUTE FUNCTION connect_hub_bump_catalog_version();

CREATE TABLE org_connections (
  org_id       text        NOT NULL,
  provider_id  text        NOT NULL REFERENCES providers (id),
  connected_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (org_id, provider_id)
);

-- Bumped by every change to an org's connections (the other part of the ETag); no row is version 0.
-- The row is also the lock that orders concurrent changes of one org.
CREATE TABLE org_connection_versions (
  org_id  text   PRIMARY KEY,
  version bigint NOT NULL CHECK (version >= 0)
);

-- BEGIN GENERATED SEED: written by services/connect-hub/src/generate-seed.ts from schemas/src/catalog.ts; do not edit by hand.
INSERT INTO providers (id, name, description) VALUES
  ('gmail', 'Gmail', 'Google email: send, search and label messages; react to incoming mail.'),
  ('google-calendar', 'Google Calendar', 'Calendars: create and cancel events, find free time.'),
  ('slack', 'Slack', 'Team chat: post messages, manage channels, react to messages and mentions.'),
  ('hubspot', 'HubSpot', 'CRM: contacts, deals and tasks.'),
  ('salesforce', 'Salesforce', 'CRM: leads, opportunities and tasks.'),
  ('zendesk', 'Zendesk', 'Customer support tickets: create, reply, update.'),
  ('jira', 'Jira', 'Issue tracking: create, transition and comment on issues.'),
  ('github', 'GitHub', 'Code hosting: issues and pull requests.'),
  ('notion', 'Notion', 'Docs and databases: pages, wiki, trackers.'),
  ('stripe', 'Stripe', 'Payments: customers, invoices, refunds.'),
  ('docusign', 'DocuSign', 'Electronic signatures: send documents for signature.'),
  ('google-drive', 'Google Drive', 'File storage: folders, uploads and sharing.'),
  ('twilio', 'Twilio', 'SMS text messages: send and receive.'),
  ('quickbooks', 'QuickBooks', 'Accounting: invoices and expenses.'),
  ('greenhouse', 'Greenhouse', 'Recruiting (ATS): candidates, interviews and hiring stages.'),
  ('bamboohr', 'BambooHR', 'HR information system: employee records and new hires.'),
  ('schedule', 'Schedule', 'Time-based triggers from a cron expression.'),
  ('webhook', 'Webhook', 'Inbound HTTP calls from any external system.'),
  ('http', 'HTTP', 'Outbound HTTP requests to any API.');

INSERT INTO capabilities (id, provider_id, name, description, risk, input_schema) VALUES
  ('gmail.send_email', 'gmail', 'send_email', 'Send an email message to one or more recipients.', 'high', '{"type":"object","properties":{"to":{"type":"array","description":"recipient email addresses","items":{"type":"string"}},"cc":{"type":"array","description":"copied email addresses","items":{"type":"string"}},"subject":{"type":"string","description":"subject line"},"body":{"type":"string","description":"message body (plain text or HTML)"},"replyToMessageId":{"type":"string","description":"id of the message this answers, to keep the thread"}},"required":["to","subject","body"],"additionalProperties":false}'::jsonb),
  ('gmail.search_email', 'gmail', 'search_email', 'Search the mailbox for messages matching a query.', 'low', '{"type":"object","properties":{"query":{"type":"string","description":"Gmail search query, e.g. \"from:billing@acme.com is:unread\""},"maxResults":{"type":"integer","description":"most messages to return","minimum":1,"maximum":100}},"required":["query"],"additionalProperties":false}'::jsonb),
  ('gmail.label_email', 'gmail', 'label_email', 'Add or remove labels on an email message (sort, archive, mark processed).', 'low', '{"type":"object","properties":{"messageId":{"type":"string","description":"id of the message"},"addLabels":{"type":"array","description":"labels to add","items":{"type":"string"}},"removeLabels":{"type":"array","description":"labels to remove","items":{"type":"string"}}},"required":["messageId"],"additionalProperties":false}'::jsonb),
  ('google-calendar.create_event', 'google-calendar', 'create_event', 'Create a calendar event and invite attendees (book a meeting or call).', 'low', '{"type":"object","properties":{"calendarId":{"type":"string","description":"calendar to write to; primary when absent"},"title":{"type":"string","description":"event title"},"start":{"type":"string","description":"start time","format":"date-time"},"end":{"type":"string","description":"end time","format":"date-time"},"attendees":{"type":"array","description":"attendee email addresses","items":{"type":"string"}},"description":{"type":"string","description":"agenda or notes"},"conferencing":{"type":"boolean","description":"add a video-call link"}},"required":["title","start","end"],"additionalProperties":false}'::jsonb),
  ('google-calendar.find_free_slot', 'google-calendar', 'find_free_slot', 'Find a free time slot shared by the given calendars.', 'low', '{"type":"object","properties":{"calendars":{"type":"array","description":"calendar ids or attendee emails to check","items":{"type":"string"}},"durationMinutes":{"type":"integer","description":"length of the slot in minutes","minimum":5,"maximum":1440},"earliest":{"type":"string","description":"search window start","format":"date-time"},"latest":{"type":"string","description":"search window end","format":"date-time"}},"required":["calendars","durationMinutes"],"additionalProperties":false}'::jsonb),
  ('google-calendar.cancel_event', 'google-calendar', 'cancel_event', 'Cancel a calendar event and notify its attendees.', 'low', '{"type":"object","properties":{"calendarId":{"type":"string","description":"calendar of the event"},"eventId":{"type":"string","description":"id of the event"},"notifyAttendees":{"type":"boolean","description":"email the attendees"}},"required":["eventId"],"additionalProperties":false}'::jsonb),
  ('slack.post_message', 'slack', 'post_message', 'Post a message to a Slack channel, thread or person.', 'low', '{"type":"object","properties":{"channel":{"type":"string","description":"channel name (#sales), channel id or user id"},"text":{"type":"string","description":"message text (mrkdwn)"},"threadTs":{"type":"string","description":"timestamp of the thread to reply in"}},"required":["channel","text"],"additionalProperties":false}'::jsonb),
  ('slack.create_channel', 'slack', 'create_channel', 'Create a Slack channel.', 'low', '{"type":"object","properties":{"name":{"type":"string","description":"channel name without #"},"isPrivate":{"type":"boolean","description":"create a private channel"},"topic":{"type":"string","description":"channel topic"}},"required":["name"],"additionalProperties":false}'::jsonb),
  ('slack.invite_user', 'slack', 'invite_user', 'Invite a user to a Slack channel.', 'low', '{"type":"object","properties":{"channel":{"type":"string","description":"channel name or id"},"user":{"type":"string","description":"user id or email"}},"required":["channel","user"],"additionalProperties":false}'::jsonb),
  ('hubspot.create_contact', 'hubspot', 'create_contact', 'Create a contact in HubSpot CRM.', 'low', '{"type":"object","properties":{"email":{"type":"string","description":"contact email","format":"email"},"firstName":{"type":"string","description":"first name"},"lastName":{"type":"string","description":"last name"},"company":{"type":"string","description":"company name"},"lifecycleStage":{"type":"string","description":"lifecycle stage, e.g. lead"}},"required":["email"],"additionalProperties":false}'::jsonb),
  ('hubspot.update_contact', 'hubspot', 'update_contact', 'Update properties of a HubSpot contact.', 'low', '{"type":"object","properties":{"contactId":{"type":"string","description":"id of the contact"},"properties":{"type":"object","description":"properties to set, by name"}},"required":["contactId","properties"],"additionalProperties":false}'::jsonb),
  ('hubspot.update_deal', 'hubspot', 'update_deal', 'Update a HubSpot deal: stage, amount, owner or other properties.', 'low', '{"type":"object","properties":{"dealId":{"type":"string","description":"id of the deal"},"stage":{"type":"string","description":"deal stage to move to"},"properties":{"type":"object","description":"other properties to set, by name"}},"required":["dealId"],"additionalProperties":false}'::jsonb),
  ('hubspot.create_task', 'hubspot', 'create_task', 'Create a follow-up task in HubSpot for an owner.', 'low', '{"type":"object","properties":{"title":{"type":"string","description":"task title"},"ownerId":{"type":"string","description":"owner the task is assigned to"},"dueDate":{"type":"string","description":"due date","format":"date-time"},"associatedObjectId":{"type":"string","description":"contact, deal or company the task is about"},"notes":{"type":"string","description":"task notes"}},"required":["title"],"additionalProperties":false}'::jsonb),
  ('salesforce.create_lead', 'salesforce', 'create_lead', 'Create a lead in Salesforce.', 'low', '{"type":"object","properties":{"email":{"type":"string","description":"lead email","format":"email"},"firstName":{"type":"string","description":"first name"},"lastName":{"type":"string","description":"last name"},"company":{"type":"string","description":"company name"},"source":{"type":"string","description":"lead source"}},"required":["lastName","company"],"additionalProperties":false}'::jsonb),
  ('salesforce.update_opportunity', 'salesforce', 'update_opportunity', 'Update a Salesforce opportunity: stage, amount, close date.', 'low', '{"type":"object","properties":{"opportunityId":{"type":"string","description":"id of the opportunity"},"stage":{"type":"string","description":"stage name to move to"},"fields":{"type":"object","description":"other fields to set, by API name"}},"required":["opportunityId"],"additionalProperties":false}'::jsonb),
  ('salesforce.create_task', 'salesforce', 'create_task', 'Create a follow-up task in Salesforce.', 'low', '{"type":"object","properties":{"subject":{"type":"string","description":"task subject"},"ownerId":{"type":"string","description":"assigned user"},"whoId":{"type":"string","description":"lead or contact id"},"dueDate":{"type":"string","description":"due date","format":"date-time"}},"required":["subject"],"additionalProperties":false}'::jsonb),
  ('zendesk.create_ticket', 'zendesk', 'create_ticket', 'Create a Zendesk support ticket.', 'low', '{"type":"object","properties":{"subject":{"type":"string","description":"ticket subject"},"description":{"type":"string","description":"first comment of the ticket"},"requesterEmail":{"type":"string","description":"who the ticket is for","format":"email"},"priority":{"type":"string","description":"priority","enum":["low","normal","high","urgent"]},"tags":{"type":"array","description":"tags","items":{"type":"string"}}},"required":["subject","description"],"additionalProperties":false}'::jsonb),
  ('zendesk.reply_ticket', 'zendesk', 'reply_ticket', 'Reply to the requester on a Zendesk ticket (public comment).', 'high', '{"type":"object","properties":{"ticketId":{"type":"string","description":"id of the ticket"},"body":{"type":"string","description":"reply text"},"public":{"type":"boolean","description":"visible to the requester; false for an internal note"}},"required":["ticketId","body"],"additionalProperties":false}'::jsonb),
  ('zendesk.update_ticket', 'zendesk', 'update_ticket', 'Update a Zendesk ticket: status, priority, tags, assignee, internal note.', 'low', '{"type":"object","properties":{"ticketId":{"type":"string","description":"id of the ticket"},"status":{"type":"string","description":"new status","enum":["new","open","pending","hold","solved","closed"]},"priority":{"type":"string","description":"priority","enum":["low","normal","high","urgent"]},"assignee":{"type":"string","description":"agent or group to assign"},"tags":{"type":"array","description":"tags to set","items":{"type":"string"}},"internalNote":{"type":"string","description":"private note for agents"}},"required":["ticketId"],"additionalProperties":false}'::jsonb),
  ('jira.create_issue', 'jira', 'create_issue', 'Create a Jira issue (bug, task, story) in a project.', 'low', '{"type":"object","properties":{"project":{"type":"string","description":"project key, e.g. OPS"},"issueType":{"type":"string","description":"issue type, e.g. Bug or Task"},"summary":{"type":"string","description":"one-line summary"},"description":{"type":"string","description":"details"},"labels":{"type":"array","description":"labels","items":{"type":"string"}}},"required":["project","summary"],"additionalProperties":false}'::jsonb),
  ('jira.transition_issue', 'jira', 'transition_issue', 'Move a Jira issue to another status.', 'low', '{"type":"object","properties":{"issueKey":{"type":"string","description":"issue key, e.g. OPS-12"},"toStatus":{"type":"string","description":"target status, e.g. Done"}},"required":["issueKey","toStatus"],"additionalProperties":false}'::jsonb),
  ('jira.comment_issue', 'jira', 'comment_issue', 'Add a comment to a Jira issue.', 'low', '{"type":"object","properties":{"issueKey":{"type":"string","description":"issue key"},"body":{"type":"string","description":"comment text"}},"required":["issueKey","body"],"additionalProperties":false}'::jsonb),
  ('github.create_issue', 'github', 'create_issue', 'Open an issue in a GitHub repository.', 'low', '{"type":"object","properties":{"repository":{"type":"string","description":"owner/name"},"title":{"type":"string","description":"issue title"},"body":{"type":"string","description":"issue body"},"labels":{"type":"array","description":"labels","items":{"type":"string"}}},"required":["repository","title"],"additionalProperties":false}'::jsonb),
  ('github.comment_pull_request', 'github', 'comment_pull_request', 'Comment on a GitHub pull request.', 'low', '{"type":"object","properties":{"repository":{"type":"string","description":"owner/name"},"pullNumber":{"type":"integer","description":"pull request number","minimum":1},"body":{"type":"string","description":"comment text"}},"required":["repository","pullNumber","body"],"additionalProperties":false}'::jsonb),
  ('github.merge_pull_request', 'github', 'merge_pull_request', 'Merge a GitHub pull request.', 'high', '{"type":"object","properties":{"repository":{"type":"string","description":"owner/name"},"pullNumber":{"type":"integer","description":"pull request number","minimum":1},"method":{"type":"string","description":"merge method","enum":["merge","squash","rebase"]}},"required":["repository","pullNumber"],"additionalProperties":false}'::jsonb),
  ('notion.create_page', 'notion', 'create_page', 'Create a Notion page (document, notes, report) under a parent page or database.', 'low', '{"type":"object","properties":{"parent":{"type":"string","description":"parent page or database"},"title":{"type":"string","description":"page title"},"content":{"type":"string","description":"page content (markdown)"},"template":{"type":"string","description":"template to start from"}},"required":["parent","title"],"additionalProperties":false}'::jsonb),
  ('notion.update_database_item', 'notion', 'update_database_item', 'Update a row of a Notion database (tracker).', 'low', '{"type":"object","properties":{"database":{"type":"string","description":"database name or id"},"itemId":{"type":"string","description":"row to update"},"properties":{"type":"object","description":"properties to set, by name"}},"required":["database","itemId","properties"],"additionalProperties":false}'::jsonb),
  ('stripe.create_invoice', 'stripe', 'create_invoice', 'Create and send a Stripe invoice to a customer.', 'high', '{"type":"object","properties":{"customerId":{"type":"string","description":"Stripe customer id"},"amount":{"type":"number","description":"amount in the smallest currency unit","minimum":0},"currency":{"type":"string","description":"ISO currency code","default":"usd"},"description":{"type":"string","description":"invoice line description"},"dueDate":{"type":"string","description":"due date","format":"date-time"}},"required":["customerId","amount"],"additionalProperties":false}'::jsonb),
  ('stripe.refund_payment', 'stripe', 'refund_payment', 'Refund a Stripe payment, fully or in part.', 'high', '{"type":"object","properties":{"paymentId":{"type":"string","description":"payment intent or charge id"},"amount":{"type":"number","description":"amount to refund; the whole payment when absent","minimum":0},"reason":{"type":"string","description":"reason"}},"required":["paymentId"],"additionalProperties":false}'::jsonb),
  ('stripe.create_customer', 'stripe', 'create_customer', 'Create a customer in Stripe.', 'low', '{"type":"object","properties":{"email":{"type":"string","description":"billing email","format":"email"},"name":{"type":"string","description":"customer name"},"metadata":{"type":"object","description":"metadata to store"}},"required":["email"],"additionalProperties":false}'::jsonb),
  ('docusign.send_envelope', 'docusign', 'send_envelope', 'Send a document to recipients for electronic signature.', 'high', '{"type":"object","properties":{"templateId":{"type":"string","description":"template to use"},"documentUrl":{"type":"string","description":"document to send when no template","format":"uri"},"signers":{"type":"array","description":"signer email addresses","items":{"type":"string"}},"subject":{"type":"string","description":"email subject"}},"required":["signers"],"additionalProperties":false}'::jsonb),
  ('google-drive.create_folder', 'google-drive', 'create_folder', 'Create a folder in Google Drive.', 'low', '{"type":"object","properties":{"name":{"type":"string","description":"folder name"},"parentFolderId":{"type":"string","description":"parent folder; root when absent"}},"required":["name"],"additionalProperties":false}'::jsonb),
  ('google-drive.upload_file', 'google-drive', 'upload_file', 'Upload or save a file into a Google Drive folder.', 'low', '{"type":"object","properties":{"folderId":{"type":"string","description":"destination folder"},"name":{"type":"string","description":"file name"},"content":{"type":"string","description":"file content or source URL"},"mimeType":{"type":"string","description":"MIME type"}},"required":["folderId","name","content"],"additionalProperties":false}'::jsonb),
  ('google-drive.share_file', 'google-drive', 'share_file', 'Share a Google Drive file or folder with people.', 'high', '{"type":"object","properties":{"fileId":{"type":"string","description":"file or folder id"},"emails":{"type":"array","description":"people to share with","items":{"type":"string"}},"role":{"type":"string","description":"access level","enum":["reader","commenter","writer"],"default":"reader"}},"required":["fileId","emails"],"additionalProperties":false}'::jsonb),
  ('twilio.send_sms', 'twilio', 'send_sms', 'Send an SMS text message to a phone number.', 'high', '{"type":"object","properties":{"to":{"type":"string","description":"phone number in E.164 form"},"body":{"type":"string","description":"message text"}},"required":["to","body"],"additionalProperties":false}'::jsonb),
  ('quickbooks.create_invoice', 'quickbooks', 'create_invoice', 'Create a QuickBooks invoice for a customer.', 'high', '{"type":"object","properties":{"customer":{"type":"string","description":"customer name or id"},"lines":{"type":"array","description":"invoice lines as \"description: amount\"","items":{"type":"string"}},"dueDate":{"type":"string","description":"due date","format":"date-time"},"sendToCustomer":{"type":"boolean","description":"email the invoice to the customer"}},"required":["customer","lines"],"additionalProperties":false}'::jsonb),
  ('quickbooks.record_expense', 'quickbooks', 'record_expense', 'Record an expense or bill in QuickBooks.', 'low', '{"type":"object","properties":{"vendor":{"type":"string","description":"vendor name"},"amount":{"type":"number","description":"amount","minimum":0},"category":{"type":"string","description":"expense account or category"},"date":{"type":"string","description":"date of the expense","format":"date"},"receiptUrl":{"type":"string","description":"link to the receipt"}},"required":["vendor","amount"],"additionalProperties":false}'::jsonb),
  ('greenhouse.create_candidate', 'greenhouse', 'create_candidate', 'Create a candidate in Greenhouse for a job.', 'low', '{"type":"object","properties":{"firstName":{"type":"string","description":"first name"},"lastName":{"type":"string","description":"last name"},"email":{"type":"string","description":"candidate email","format":"email"},"jobId":{"type":"string","description":"job applied for"}},"required":["firstName","lastName"],"additionalProperties":false}'::jsonb),
  ('greenhouse.schedule_interview', 'greenhouse', 'schedule_interview', 'Schedule an interview for a candidate with interviewers.', 'low', '{"type":"object","properties":{"applicationId":{"type":"string","description":"candidate application"},"interviewers":{"type":"array","description":"interviewer emails","items":{"type":"string"}},"start":{"type":"string","description":"start time","format":"date-time"},"durationMinutes":{"type":"integer","description":"length in minutes","minimum":5,"maximum":480}},"required":["applicationId","interviewers","start"],"additionalProperties":false}'::jsonb),
  ('greenhouse.move_candidate_stage', 'greenhouse', 'move_candidate_stage', 'Move a candidate to another hiring stage (advance or reject).', 'low', '{"type":"object","properties":{"applicationId":{"type":"string","description":"candidate application"},"toStage":{"type":"string","description":"target stage, e.g. Onsite"}},"required":["applicationId","toStage"],"additionalProperties":false}'::jsonb),
  ('bamboohr.create_employee', 'bamboohr', 'create_employee', 'Create an employee record in BambooHR.', 'low', '{"type":"object","properties":{"firstName":{"type":"string","description":"first name"},"lastName":{"type":"string","description":"last name"},"workEmail":{"type":"string","description":"work email","format":"email"},"startDate":{"type":"string","description":"start date","format":"date"},"department":{"type":"string","description":"department"}},"required":["firstName","lastName"],"additionalProperties":false}'::jsonb),
  ('bamboohr.update_employee', 'bamboohr', 'update_employee', 'Update fields of a BambooHR employee record.', 'low', '{"type":"object","properties":{"employeeId":{"type":"string","description":"id of the employee"},"fields":{"type":"object","description":"fields to set, by name"}},"required":["employeeId","fields"],"additionalProperties":false}'::jsonb),
  ('http.request', 'http', 'request', 'Call any HTTP API endpoint.', 'high', '{"type":"object","properties":{"method":{"type":"string","description":"HTTP method","enum":["GET","POST","PUT","PATCH","DELETE"]},"url":{"type":"string","description":"absolute URL","format":"uri"},"headers":{"type":"object","description":"request headers, by name"},"body":{"type":"string","description":"request body (JSON text)"}},"required":["method","url"],"additionalProperties":false}'::jsonb);

INSERT INTO triggers (id, provider_id, name, description, params_schema) VALUES
  ('gmail.new_email', 'gmail', 'new_email', 'A new email arrives in the mailbox.', '{"type":"object","properties":{"from":{"type":"string","description":"only mail from this address or domain"},"subjectContains":{"type":"string","description":"only mail whose subject contains this text"},"label":{"type":"string","description":"only mail with this label"}},"required":[],"additionalProperties":false}'::jsonb),
  ('google-calendar.event_starting', 'google-calendar', 'event_starting', 'A calendar event is about to start.', '{"type":"object","properties":{"calendarId":{"type":"string","description":"calendar to watch; primary when absent"},"minutesBefore":{"type":"integer","description":"how long before the start to fire","minimum":0,"maximum":10080,"default":15}},"required":[],"additionalProperties":false}'::jsonb),
  ('slack.new_message', 'slack', 'new_message', 'A message is posted in a channel the app can read.', '{"type":"object","properties":{"channel":{"type":"string","description":"only messages in this channel, e.g. #help"}},"required":[],"additionalProperties":false}'::jsonb),
  ('slack.mention', 'slack', 'mention', 'Someone mentions the employee or a handle in Slack.', '{"type":"object","properties":{"channel":{"type":"string","description":"only mentions in this channel"},"handle":{"type":"string","description":"handle mentioned, e.g. @oncall; the employee itself when absent"}},"required":[],"additionalProperties":false}'::jsonb),
  ('hubspot.new_contact', 'hubspot', 'new_contact', 'A contact is created in HubSpot.', '{"type":"object","properties":{"lifecycleStage":{"type":"string","description":"only contacts in this lifecycle stage, e.g. lead"}},"required":[],"additionalProperties":false}'::jsonb),
  ('hubspot.deal_stage_changed', 'hubspot', 'deal_stage_changed', 'A HubSpot deal moves to a stage.', '{"type":"object","properties":{"stage":{"type":"string","description":"stage the deal moves to, e.g. Closed Won"},"pipeline":{"type":"string","description":"only deals in this pipeline"}},"required":["stage"],"additionalProperties":false}'::jsonb),
  ('salesforce.new_lead', 'salesforce', 'new_lead', 'A lead is created in Salesforce.', '{"type":"object","properties":{"source":{"type":"string","description":"only leads from this lead source"}},"required":[],"additionalProperties":false}'::jsonb),
  ('salesforce.opportunity_stage_changed', 'salesforce', 'opportunity_stage_changed', 'A Salesforce opportunity moves to a stage.', '{"type":"object","properties":{"stage":{"type":"string","description":"stage the opportunity moves to, e.g. Negotiation"}},"required":["stage"],"additionalProperties":false}'::jsonb),
  ('zendesk.new_ticket', 'zendesk', 'new_ticket', 'A support ticket is created in Zendesk.', '{"type":"object","properties":{"priority":{"type":"string","description":"only tickets of this priority","enum":["low","normal","high","urgent"]},"tag":{"type":"string","description":"only tickets with this tag"}},"required":[],"additionalProperties":false}'::jsonb),
  ('zendesk.ticket_updated', 'zendesk', 'ticket_updated', 'A Zendesk ticket changes (status, priority, comment).', '{"type":"object","properties":{"status":{"type":"string","description":"only when the ticket reaches this status"},"priority":{"type":"string","description":"only when the ticket has this priority","enum":["low","normal","high","urgent"]}},"required":[],"additionalProperties":false}'::jsonb),
  ('jira.issue_created', 'jira', 'issue_created', 'An issue is created in Jira.', '{"type":"object","properties":{"project":{"type":"string","description":"only issues of this project key"},"issueType":{"type":"string","description":"only issues of this type, e.g. Bug"}},"required":[],"additionalProperties":false}'::jsonb),
  ('jira.issue_transitioned', 'jira', 'issue_transitioned', 'A Jira issue moves to another status.', '{"type":"object","properties":{"project":{"type":"string","description":"only issues of this project key"},"toStatus":{"type":"string","description":"only transitions to this status, e.g. Done"}},"required":[],"additionalProperties":false}'::jsonb),
  ('github.pull_request_opened', 'github', 'pull_request_opened', 'A pull request is opened in a GitHub repository.', '{"type":"object","properties":{"repository":{"type":"string","description":"only this repository (owner/name)"}},"required":[],"additionalProperties":false}'::jsonb),
  ('github.issue_opened', 'github', 'issue_opened', 'An issue is opened in a GitHub repository.', '{"type":"object","properties":{"repository":{"type":"string","description":"only this repository (owner/name)"},"label":{"type":"string","description":"only issues with this label"}},"required":[],"additionalProperties":false}'::jsonb),
  ('notion.page_updated', 'notion', 'page_updated', 'A Notion page or database item changes.', '{"type":"object","properties":{"database":{"type":"string","description":"only items of this database"}},"required":[],"additionalProperties":false}'::jsonb),
  ('stripe.payment_failed', 'stripe', 'payment_failed', 'A Stripe payment attempt fails.', '{"type":"object","properties":{"minAmount":{"type":"number","description":"only failures of at least this amount","minimum":0}},"required":[],"additionalProperties":false}'::jsonb),
  ('stripe.invoice_paid', 'stripe', 'invoice_paid', 'A Stripe invoice is paid.', '{"type":"object","properties":{"minAmount":{"type":"number","description":"only invoices of at least this amount","minimum":0}},"required":[],"additionalProperties":false}'::jsonb),
  ('docusign.envelope_completed', 'docusign', 'envelope_completed', 'Every signer has signed a DocuSign envelope.', '{"type":"object","properties":{"templateId":{"type":"string","description":"only envelopes from this template"}},"required":[],"additionalProperties":false}'::jsonb),
  ('google-drive.file_added', 'google-drive', 'file_added', 'A file is added to a Google Drive folder.', '{"type":"object","properties":{"folder":{"type":"string","description":"folder to watch"}},"required":[],"additionalProperties":false}'::jsonb),
  ('twilio.sms_received', 'twilio', 'sms_received', 'An SMS text message arrives at a Twilio number.', '{"type":"object","properties":{"to":{"type":"string","description":"receiving phone number"}},"required":[],"additionalProperties":false}'::jsonb),
  ('quickbooks.invoice_overdue', 'quickbooks', 'invoice_overdue', 'A QuickBooks invoice passes its due date unpaid.', '{"type":"object","properties":{"daysOverdue":{"type":"integer","description":"days past due before firing","minimum":0,"maximum":365,"default":0}},"required":[],"additionalProperties":false}'::jsonb),
  ('greenhouse.candidate_applied', 'greenhouse', 'candidate_applied', 'A candidate applies to a job in Greenhouse.', '{"type":"object","properties":{"job":{"type":"string","description":"only applications to this job"}},"required":[],"additionalProperties":false}'::jsonb),
  ('bamboohr.new_hire', 'bamboohr', 'new_hire', 'A new hire is added in BambooHR.', '{"type":"object","properties":{"department":{"type":"string","description":"only hires in this department"}},"required":[],"additionalProperties":false}'::jsonb),
  ('schedule.cron', 'schedule', 'cron', 'Fires on a time schedule.', '{"type":"object","properties":{"expression":{"type":"string","description":"five-field cron expression, e.g. \"0 9 * * 1\" for Mondays at 09:00"},"timezone":{"type":"string","description":"IANA time zone, e.g. Europe/Paris; UTC when absent"}},"required":["expression"],"additionalProperties":false}'::jsonb),
  ('webhook.incoming_webhook', 'webhook', 'incoming_webhook', 'An external system calls the employee’s webhook URL.', '{"type":"object","properties":{"path":{"type":"string","description":"path of the webhook under the employee’s URL, e.g. /demo-request"}},"required":[],"additionalProperties":false}'::jsonb);

INSERT INTO org_connections (org_id, provider_id) VALUES
  ('acme', 'gmail'),
  ('acme', 'google-calendar'),
  ('acme', 'google-drive'),
  ('acme', 'http'),
  ('acme', 'hubspot'),
  ('acme', 'jira'),
  ('acme', 'notion'),
  ('acme', 'schedule'),
  ('acme', 'slack'),
  ('acme', 'webhook'),
  ('acme', 'zendesk');

INSERT INTO org_connection_versions (org_id, version) VALUES
  ('acme', 1);
-- END GENERATED SEED

-- Down Migration
DROP TABLE org_connection_versions;
DROP TABLE org_connections;
DROP TABLE triggers;
DROP TABLE capabilities;
DROP TABLE providers;
DROP TABLE catalog_version;
DROP FUNCTION connect_hub_bump_catalog_version();
