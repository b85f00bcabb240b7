import { type Static, Type } from '@sinclair/typebox';
import { Id, Literals, Name, ShortText } from './common';
import { Limits } from './limits';
import { capabilityVocabulary, triggerVocabulary, Vocabulary } from './vocabulary';

/** One property of a capability's inputs or a trigger's parameters, as JSON Schema. */
export const JsonSchemaProperty = Type.Object(
  {
    type: Literals(['string', 'number', 'integer', 'boolean', 'array', 'object']),
    description: ShortText,
    format: Type.Optional(Type.String({ maxLength: 40 })),
    enum: Type.Optional(Type.Array(Type.String({ maxLength: Limits.name }), { maxItems: 50 })),
    items: Type.Optional(
      Type.Object({ type: Literals(['string', 'number', 'integer', 'boolean']) }, { additionalProperties: false }),
    ),
    minimum: Type.Optional(Type.Number()),
    maximum: Type.Optional(Type.Number()),
    default: Type.Optional(Type.Union([Type.String({ maxLength: Limits.name }), Type.Number(), Type.Boolean()])),
  },
  { additionalProperties: false },
);
export type JsonSchemaProperty = Static<typeof JsonSchemaProperty>;

/** A JSON Schema of an object: what a capability takes or what a trigger is configured with. */
export const ObjectJsonSchema = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Record(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9_]*$', maxLength: 64 }), JsonSchemaProperty, {
      maxProperties: 50,
    }),
    required: Type.Array(Type.String({ maxLength: 64 }), { maxItems: 50 }),
    additionalProperties: Type.Boolean(),
  },
  { additionalProperties: false },
);
export type ObjectJsonSchema = Static<typeof ObjectJsonSchema>;

export const CatalogProvider = Type.Object({ id: Id, name: Name, description: ShortText }, { additionalProperties: false });
export type CatalogProvider = Static<typeof CatalogProvider>;

export const Risk = Literals(['low', 'high']);
export type Risk = Static<typeof Risk>;

export const CatalogCapability = Type.Object(
  {
    id: Id,
    providerId: Id,
    name: Name,
    description: ShortText,
    /** high: reaches customers or moves money or code (sending, refunds, payments, merges) */
    risk: Risk,
    inputSchema: ObjectJsonSchema,
    /** what the call answers: a run binds later steps to it (ARCHITECTURE §11) */
    outputSchema: ObjectJsonSchema,
    /** what a person says for it: the analyst matches clauses against this (absent: read off name and description) */
    vocabulary: Type.Optional(Vocabulary),
  },
  { additionalProperties: false },
);
export type CatalogCapability = Static<typeof CatalogCapability>;

export const CatalogTrigger = Type.Object(
  {
    id: Id,
    providerId: Id,
    name: Name,
    description: ShortText,
    paramsSchema: ObjectJsonSchema,
    /** the event a fire carries: a run binds steps to it; a webhook body must satisfy it */
    eventSchema: ObjectJsonSchema,
    /** what a person says for it: the analyst matches event clauses against this */
    vocabulary: Type.Optional(Vocabulary),
  },
  { additionalProperties: false },
);
export type CatalogTrigger = Static<typeof CatalogTrigger>;

export const BuiltInCatalog = Type.Object(
  {
    providers: Type.Array(CatalogProvider, { maxItems: 500 }),
    capabilities: Type.Array(CatalogCapability, { maxItems: 5000 }),
    triggers: Type.Array(CatalogTrigger, { maxItems: 5000 }),
  },
  { additionalProperties: false },
);
export type BuiltInCatalog = Static<typeof BuiltInCatalog>;

// ---- builders: keep the table below readable ----

type Props = Record<string, JsonSchemaProperty>;
const str = (description: string, extra: Partial<JsonSchemaProperty> = {}): JsonSchemaProperty => ({
  type: 'string',
  description,
  ...extra,
});
const num = (description: string, extra: Partial<JsonSchemaProperty> = {}): JsonSchemaProperty => ({
  type: 'number',
  description,
  ...extra,
});
const int = (description: string, extra: Partial<JsonSchemaProperty> = {}): JsonSchemaProperty => ({
  type: 'integer',
  description,
  ...extra,
});
const bool = (description: string): JsonSchemaProperty => ({ type: 'boolean', description });
const list = (description: string): JsonSchemaProperty => ({ type: 'array', description, items: { type: 'string' } });
const email = (description: string): JsonSchemaProperty => str(description, { format: 'email' });
const dateTime = (description: string): JsonSchemaProperty => str(description, { format: 'date-time' });

const object = (properties: Props, required: readonly string[] = []): ObjectJsonSchema => ({
  type: 'object',
  properties,
  required: [...required],
  additionalProperties: false,
});

const capability = (
  providerId: string,
  name: string,
  description: string,
  risk: Risk,
  properties: Props,
  required: readonly string[],
): CatalogCapability => ({
  id: `${providerId}.${name}`,
  providerId,
  name,
  description,
  risk,
  inputSchema: object(properties, required),
  outputSchema: known(outputs, `${providerId}.${name}`),
});

const known = (table: Readonly<Record<string, ObjectJsonSchema>>, id: string): ObjectJsonSchema => {
  const schema = table[id];
  if (!schema) throw new Error(`the built-in catalog has no output or event schema for ${id}`);
  return schema;
};

const trigger = (
  providerId: string,
  name: string,
  description: string,
  properties: Props = {},
  required: readonly string[] = [],
): CatalogTrigger => ({
  id: `${providerId}.${name}`,
  providerId,
  name,
  description,
  paramsSchema: object(properties, required),
  eventSchema: known(events, `${providerId}.${name}`),
});

// ---- what each capability answers and what each trigger's event carries (ARCHITECTURE §11) ----
// Flat objects of scalars and lists of scalars, so that a step can bind an input to a field by its path.

const ticketFields: Props = {
  ticketId: str('id of the ticket'),
  subject: str('ticket subject'),
  description: str('first comment of the ticket: what the requester wrote'),
  requesterEmail: email('email of the requester'),
  requesterName: str('name of the requester'),
  status: str('ticket status'),
  priority: str('ticket priority'),
  tags: list('ticket tags'),
  amount: num('amount named on the ticket (custom field), when its form has one'),
  orderId: str('order the ticket is about (custom field), when its form has one'),
  paymentId: str('payment or charge the ticket is about (custom field), when its form has one'),
  url: str('link to the ticket', { format: 'uri' }),
};
const issueFields: Props = {
  issueKey: str('issue key, e.g. OPS-12'),
  project: str('project key'),
  issueType: str('issue type'),
  summary: str('one-line summary of the issue'),
  description: str('details of the issue'),
  status: str('current status'),
  reporterEmail: email('email of the reporter'),
  assigneeEmail: email('email of the assignee'),
  labels: list('labels'),
  url: str('link to the issue', { format: 'uri' }),
};
const messageFields: Props = {
  channel: str('channel the message was posted in'),
  user: str('user id of the author'),
  userEmail: email('email of the author'),
  text: str('message text'),
  threadTs: str('timestamp of the thread, to reply in it'),
  messageTs: str('timestamp of the message'),
  permalink: str('link to the message', { format: 'uri' }),
};
const emailFields: Props = {
  messageId: str('id of the email message'),
  threadId: str('id of the email thread'),
  from: email('sender email address'),
  fromName: str('sender name'),
  to: list('recipient email addresses'),
  subject: str('subject line'),
  body: str('message body as text'),
  attachments: list('names of the attached files'),
  receivedAt: dateTime('when the email arrived'),
};
const contactFields: Props = {
  contactId: str('id of the contact'),
  email: email('contact email'),
  firstName: str('first name'),
  lastName: str('last name'),
  company: str('company name'),
  lifecycleStage: str('lifecycle stage'),
  ownerEmail: email('email of the contact owner'),
};
const dealFields: Props = {
  dealId: str('id of the deal'),
  dealName: str('deal name'),
  stage: str('deal stage'),
  pipeline: str('pipeline of the deal'),
  amount: num('deal amount'),
  closeDate: dateTime('expected close date'),
  contactEmail: email('email of the main contact'),
  ownerEmail: email('email of the deal owner'),
  company: str('company name'),
};
const leadFields: Props = {
  leadId: str('id of the lead'),
  email: email('lead email'),
  firstName: str('first name'),
  lastName: str('last name'),
  company: str('company name'),
  source: str('lead source'),
  ownerEmail: email('email of the lead owner'),
};
const opportunityFields: Props = {
  opportunityId: str('id of the opportunity'),
  name: str('opportunity name'),
  stage: str('opportunity stage'),
  amount: num('opportunity amount'),
  closeDate: dateTime('expected close date'),
  ownerEmail: email('email of the opportunity owner'),
  accountName: str('account (company) name'),
};
const pullRequestFields: Props = {
  repository: str('owner/name'),
  pullNumber: int('pull request number', { minimum: 1 }),
  title: str('pull request title'),
  body: str('pull request description'),
  author: str('login of the author'),
  branch: str('source branch'),
  baseBranch: str('target branch'),
  url: str('link to the pull request', { format: 'uri' }),
};
const githubIssueFields: Props = {
  repository: str('owner/name'),
  issueNumber: int('issue number', { minimum: 1 }),
  title: str('issue title'),
  body: str('issue body'),
  author: str('login of the author'),
  labels: list('labels'),
  url: str('link to the issue', { format: 'uri' }),
};
const invoiceFields: Props = {
  invoiceId: str('id of the invoice'),
  customerId: str('id of the customer'),
  customerEmail: email('billing email of the customer'),
  customerName: str('customer name'),
  amount: num('invoice amount'),
  currency: str('ISO currency code'),
  dueDate: dateTime('due date'),
  url: str('link to the invoice', { format: 'uri' }),
};
const candidateFields: Props = {
  candidateId: str('id of the candidate'),
  applicationId: str('id of the candidate application'),
  firstName: str('first name'),
  lastName: str('last name'),
  email: email('candidate email'),
  jobId: str('job applied for'),
  jobName: str('title of the job applied for'),
  stage: str('hiring stage'),
  recruiterEmail: email('email of the recruiter'),
};
const employeeFields: Props = {
  employeeId: str('id of the employee'),
  firstName: str('first name'),
  lastName: str('last name'),
  workEmail: email('work email'),
  startDate: str('start date', { format: 'date' }),
  department: str('department'),
  jobTitle: str('job title'),
  managerEmail: email('email of the manager'),
};
const calendarEventFields: Props = {
  eventId: str('id of the event'),
  calendarId: str('calendar of the event'),
  title: str('event title'),
  description: str('agenda or notes'),
  start: dateTime('start time'),
  end: dateTime('end time'),
  attendees: list('attendee email addresses'),
  organizerEmail: email('email of the organiser'),
  meetingUrl: str('video-call link', { format: 'uri' }),
};
const fileFields: Props = {
  fileId: str('id of the file'),
  name: str('file name'),
  folderId: str('folder of the file'),
  mimeType: str('MIME type'),
  url: str('link to the file', { format: 'uri' }),
  ownerEmail: email('email of the owner'),
};

const outputs: Readonly<Record<string, ObjectJsonSchema>> = {
  'gmail.send_email': object({ messageId: str('id of the sent message'), threadId: str('id of the thread') }, ['messageId']),
  'gmail.search_email': object(
    {
      messageIds: list('ids of the matching messages'),
      count: int('how many messages matched', { minimum: 0 }),
      subjects: list('subjects of the matching messages'),
      senders: list('senders of the matching messages'),
    },
    ['messageIds', 'count'],
  ),
  'gmail.label_email': object({ messageId: str('id of the message'), labels: list('labels now on the message') }, ['messageId']),
  'google-calendar.create_event': object(
    { eventId: str('id of the event'), url: str('link to the event', { format: 'uri' }), meetingUrl: str('video-call link') },
    ['eventId'],
  ),
  'google-calendar.find_free_slot': object(
    { start: dateTime('start of the free slot'), end: dateTime('end of the free slot'), found: bool('whether a slot was found') },
    ['found'],
  ),
  'google-calendar.cancel_event': object(
    { eventId: str('id of the cancelled event'), cancelled: bool('whether it was cancelled') },
    ['eventId'],
  ),
  'slack.post_message': object(
    {
      channel: str('channel the message went to'),
      messageTs: str('timestamp of the posted message'),
      threadTs: str('timestamp of its thread, to reply in it'),
      permalink: str('link to the message', { format: 'uri' }),
    },
    ['channel', 'messageTs'],
  ),
  'slack.create_channel': object({ channelId: str('id of the channel'), name: str('channel name') }, ['channelId']),
  'slack.invite_user': object({ channel: str('channel'), user: str('invited user id') }, ['channel', 'user']),
  'hubspot.create_contact': object(contactFields, ['contactId']),
  'hubspot.update_contact': object(contactFields, ['contactId']),
  'hubspot.update_deal': object(dealFields, ['dealId']),
  'hubspot.create_task': object({ taskId: str('id of the task'), title: str('task title'), ownerId: str('owner of the task') }, [
    'taskId',
  ]),
  'salesforce.create_lead': object(leadFields, ['leadId']),
  'salesforce.update_opportunity': object(opportunityFields, ['opportunityId']),
  'salesforce.create_task': object({ taskId: str('id of the task'), subject: str('task subject') }, ['taskId']),
  'zendesk.create_ticket': object(
    { ticketId: str('id of the ticket'), url: str('link to the ticket', { format: 'uri' }), status: str('ticket status') },
    ['ticketId'],
  ),
  'zendesk.reply_ticket': object({ ticketId: str('id of the ticket'), commentId: str('id of the reply') }, ['ticketId']),
  'zendesk.update_ticket': object(
    { ticketId: str('id of the ticket'), status: str('ticket status'), priority: str('priority') },
    ['ticketId'],
  ),
  'jira.create_issue': object(
    { issueKey: str('key of the new issue, e.g. OPS-12'), url: str('link to the issue', { format: 'uri' }) },
    ['issueKey'],
  ),
  'jira.transition_issue': object({ issueKey: str('issue key'), status: str('status the issue is now in') }, ['issueKey']),
  'jira.comment_issue': object({ issueKey: str('issue key'), commentId: str('id of the comment') }, ['issueKey']),
  'github.create_issue': object(
    { repository: str('owner/name'), issueNumber: int('number of the new issue', { minimum: 1 }), url: str('link to the issue') },
    ['issueNumber'],
  ),
  'github.comment_pull_request': object({ commentId: str('id of the comment'), url: str('link to the comment') }, ['commentId']),
  'github.merge_pull_request': object({ merged: bool('whether it was merged'), sha: str('merge commit sha') }, ['merged']),
  'notion.create_page': object(
    { pageId: str('id of the page'), url: str('link to the page', { format: 'uri' }), title: str('page title') },
    ['pageId'],
  ),
  'notion.update_database_item': object({ itemId: str('row updated'), url: str('link to the row', { format: 'uri' }) }, [
    'itemId',
  ]),
  'stripe.create_invoice': object(invoiceFields, ['invoiceId']),
  'stripe.refund_payment': object(
    {
      refundId: str('id of the refund'),
      paymentId: str('payment refunded'),
      amount: num('amount refunded'),
      currency: str('ISO currency code'),
      status: str('refund status', { enum: ['pending', 'succeeded', 'failed'] }),
    },
    ['refundId', 'status'],
  ),
  'stripe.create_customer': object({ customerId: str('Stripe customer id'), email: email('billing email') }, ['customerId']),
  'docusign.send_envelope': object({ envelopeId: str('id of the envelope'), status: str('envelope status') }, ['envelopeId']),
  'google-drive.create_folder': object({ folderId: str('id of the folder'), url: str('link to the folder', { format: 'uri' }) }, [
    'folderId',
  ]),
  'google-drive.upload_file': object({ fileId: str('id of the file'), url: str('link to the file', { format: 'uri' }) }, [
    'fileId',
  ]),
  'google-drive.share_file': object({ fileId: str('id of the file'), url: str('link to the shared file', { format: 'uri' }) }, [
    'fileId',
  ]),
  'twilio.send_sms': object({ messageSid: str('id of the sent text message'), status: str('delivery status') }, ['messageSid']),
  'quickbooks.create_invoice': object(
    { invoiceId: str('id of the invoice'), amount: num('invoice total'), url: str('link to the invoice', { format: 'uri' }) },
    ['invoiceId'],
  ),
  'quickbooks.record_expense': object({ expenseId: str('id of the expense'), amount: num('amount recorded') }, ['expenseId']),
  'greenhouse.create_candidate': object(candidateFields, ['candidateId']),
  'greenhouse.schedule_interview': object(
    { interviewId: str('id of the interview'), start: dateTime('start time'), end: dateTime('end time') },
    ['interviewId'],
  ),
  'greenhouse.move_candidate_stage': object({ applicationId: str('candidate application'), stage: str('stage now') }, [
    'applicationId',
  ]),
  'bamboohr.create_employee': object(employeeFields, ['employeeId']),
  'bamboohr.update_employee': object(employeeFields, ['employeeId']),
  'http.request': object(
    { status: int('HTTP status code'), body: str('response body (JSON text)'), contentType: str('content type of the response') },
    ['status'],
  ),
};

/** An event may carry more than its schema names (providers add fields): only the named ones are bound. */
const event = (properties: Props, required: readonly string[] = []): ObjectJsonSchema => ({
  ...object(properties, required),
  additionalProperties: true,
});

const events: Readonly<Record<string, ObjectJsonSchema>> = {
  'gmail.new_email': event(emailFields, ['messageId']),
  'google-calendar.event_starting': event(calendarEventFields, ['eventId']),
  'slack.new_message': event(messageFields, ['channel', 'text']),
  'slack.mention': event(messageFields, ['channel', 'text']),
  'hubspot.new_contact': event(contactFields, ['contactId']),
  'hubspot.deal_stage_changed': event({ ...dealFields, previousStage: str('stage the deal left') }, ['dealId', 'stage']),
  'salesforce.new_lead': event(leadFields, ['leadId']),
  'salesforce.opportunity_stage_changed': event({ ...opportunityFields, previousStage: str('stage the opportunity left') }, [
    'opportunityId',
    'stage',
  ]),
  'zendesk.new_ticket': event(ticketFields, ['ticketId']),
  'zendesk.ticket_updated': event({ ...ticketFields, previousStatus: str('status before the change') }, ['ticketId']),
  'jira.issue_created': event(issueFields, ['issueKey']),
  'jira.issue_transitioned': event({ ...issueFields, previousStatus: str('status before the transition') }, ['issueKey']),
  'github.pull_request_opened': event(pullRequestFields, ['repository', 'pullNumber']),
  'github.issue_opened': event(githubIssueFields, ['repository', 'issueNumber']),
  'notion.page_updated': event(
    {
      pageId: str('id of the page or row'),
      database: str('database of the row'),
      title: str('page title'),
      url: str('link to the page', { format: 'uri' }),
      editorEmail: email('email of who changed it'),
    },
    ['pageId'],
  ),
  'stripe.payment_failed': event(
    {
      paymentId: str('payment intent or charge id'),
      customerId: str('Stripe customer id'),
      customerEmail: email('billing email of the customer'),
      customerName: str('customer name'),
      amount: num('amount of the failed payment'),
      currency: str('ISO currency code'),
      failureReason: str('why the payment failed'),
    },
    ['paymentId'],
  ),
  'stripe.invoice_paid': event({ ...invoiceFields, paymentId: str('payment that paid the invoice') }, ['invoiceId']),
  'docusign.envelope_completed': event(
    {
      envelopeId: str('id of the envelope'),
      subject: str('email subject of the envelope'),
      signers: list('signer email addresses'),
      documentUrl: str('link to the signed document', { format: 'uri' }),
      completedAt: dateTime('when the last signer signed'),
    },
    ['envelopeId'],
  ),
  'google-drive.file_added': event(fileFields, ['fileId']),
  'twilio.sms_received': event(
    {
      messageSid: str('id of the text message'),
      from: str('sender phone number in E.164 form'),
      to: str('receiving phone number'),
      body: str('message text'),
    },
    ['from', 'body'],
  ),
  'quickbooks.invoice_overdue': event(
    {
      invoiceId: str('id of the invoice'),
      customer: str('customer name or id'),
      customerEmail: email('billing email of the customer'),
      amount: num('amount due'),
      dueDate: str('due date', { format: 'date' }),
      daysOverdue: int('days past due', { minimum: 0 }),
    },
    ['invoiceId'],
  ),
  'greenhouse.candidate_applied': event(candidateFields, ['applicationId']),
  'bamboohr.new_hire': event(employeeFields, ['employeeId']),
  'schedule.cron': event(
    { firedAt: dateTime('the time slot this run is for'), expression: str('the cron expression that fired') },
    ['firedAt'],
  ),
  'webhook.incoming_webhook': event({}, []),
};

// ---- the built-in catalog (ARCHITECTURE §8a) ----

const providers: CatalogProvider[] = [
  { id: 'gmail', name: 'Gmail', description: 'Google email: send, search and label messages; react to incoming mail.' },
  { id: 'google-calendar', name: 'Google Calendar', description: 'Calendars: create and cancel events, find free time.' },
  { id: 'slack', name: 'Slack', description: 'Team chat: post messages, manage channels, react to messages and mentions.' },
  { id: 'hubspot', name: 'HubSpot', description: 'CRM: contacts, deals and tasks.' },
  { id: 'salesforce', name: 'Salesforce', description: 'CRM: leads, opportunities and tasks.' },
  { id: 'zendesk', name: 'Zendesk', description: 'Customer support tickets: create, reply, update.' },
  { id: 'jira', name: 'Jira', description: 'Issue tracking: create, transition and comment on issues.' },
  { id: 'github', name: 'GitHub', description: 'Code hosting: issues and pull requests.' },
  { id: 'notion', name: 'Notion', description: 'Docs and databases: pages, wiki, trackers.' },
  { id: 'stripe', name: 'Stripe', description: 'Payments: customers, invoices, refunds.' },
  { id: 'docusign', name: 'DocuSign', description: 'Electronic signatures: send documents for signature.' },
  { id: 'google-drive', name: 'Google Drive', description: 'File storage: folders, uploads and sharing.' },
  { id: 'twilio', name: 'Twilio', description: 'SMS text messages: send and receive.' },
  { id: 'quickbooks', name: 'QuickBooks', description: 'Accounting: invoices and expenses.' },
  { id: 'greenhouse', name: 'Greenhouse', description: 'Recruiting (ATS): candidates, interviews and hiring stages.' },
  { id: 'bamboohr', name: 'BambooHR', description: 'HR information system: employee records and new hires.' },
  { id: 'schedule', name: 'Schedule', description: 'Time-based triggers from a cron expression.' },
  { id: 'webhook', name: 'Webhook', description: 'Inbound HTTP calls from any external system.' },
  { id: 'http', name: 'HTTP', description: 'Outbound HTTP requests to any API.' },
];

const capabilities: CatalogCapability[] = [
  // gmail
  capability(
    'gmail',
    'send_email',
    'Send an email message to one or more recipients.',
    'high',
    {
      to: list('recipient email addresses'),
      cc: list('copied email addresses'),
      subject: str('subject line'),
      body: str('message body (plain text or HTML)'),
      replyToMessageId: str('id of the message this answers, to keep the thread'),
    },
    ['to', 'subject', 'body'],
  ),
  capability(
    'gmail',
    'search_email',
    'Search the mailbox for messages matching a query.',
    'low',
    {
      query: str('Gmail search query, e.g. "from:billing@acme.com is:unread"'),
      maxResults: int('most messages to return', { minimum: 1, maximum: 100 }),
    },
    ['query'],
  ),
  capability(
    'gmail',
    'label_email',
    'Add or remove labels on an email message (sort, archive, mark processed).',
    'low',
    { messageId: str('id of the message'), addLabels: list('labels to add'), removeLabels: list('labels to remove') },
    ['messageId'],
  ),
  // google-calendar
  capability(
    'google-calendar',
    'create_event',
    'Create a calendar event and invite attendees (book a meeting or call).',
    'low',
    {
      calendarId: str('calendar to write to; primary when absent'),
      title: str('event title'),
      start: dateTime('start time'),
      end: dateTime('end time'),
      attendees: list('attendee email addresses'),
      description: str('agenda or notes'),
      conferencing: bool('add a video-call link'),
    },
    ['title', 'start', 'end'],
  ),
  capability(
    'google-calendar',
    'find_free_slot',
    'Find a free time slot shared by the given calendars.',
    'low',
    {
      calendars: list('calendar ids or attendee emails to check'),
      durationMinutes: int('length of the slot in minutes', { minimum: 5, maximum: 1440 }),
      earliest: dateTime('search window start'),
      latest: dateTime('search window end'),
    },
    ['calendars', 'durationMinutes'],
  ),
  capability(
    'google-calendar',
    'cancel_event',
    'Cancel a calendar event and notify its attendees.',
    'low',
    { calendarId: str('calendar of the event'), eventId: str('id of the event'), notifyAttendees: bool('email the attendees') },
    ['eventId'],
  ),
  // slack
  capability(
    'slack',
    'post_message',
    'Post a message to a Slack channel, thread or person.',
    'low',
    {
      channel: str('channel name (#sales), channel id or user id'),
      text: str('message text (mrkdwn)'),
      threadTs: str('timestamp of the thread to reply in'),
    },
    ['channel', 'text'],
  ),
  capability(
    'slack',
    'create_channel',
    'Create a Slack channel.',
    'low',
    { name: str('channel name without #'), isPrivate: bool('create a private channel'), topic: str('channel topic') },
    ['name'],
  ),
  capability(
    'slack',
    'invite_user',
    'Invite a user to a Slack channel.',
    'low',
    { channel: str('channel name or id'), user: str('user id or email') },
    ['channel', 'user'],
  ),
  // hubspot
  capability(
    'hubspot',
    'create_contact',
    'Create a contact in HubSpot CRM.',
    'low',
    {
      email: email('contact email'),
      firstName: str('first name'),
      lastName: str('last name'),
      company: str('company name'),
      lifecycleStage: str('lifecycle stage, e.g. lead'),
    },
    ['email'],
  ),
  capability(
    'hubspot',
    'update_contact',
    'Update properties of a HubSpot contact.',
    'low',
    { contactId: str('id of the contact'), properties: { type: 'object', description: 'properties to set, by name' } },
    ['contactId', 'properties'],
  ),
  capability(
    'hubspot',
    'update_deal',
    'Update a HubSpot deal: stage, amount, owner or other properties.',
    'low',
    {
      dealId: str('id of the deal'),
      stage: str('deal stage to move to'),
      properties: { type: 'object', description: 'other properties to set, by name' },
    },
    ['dealId'],
  ),
  capability(
    'hubspot',
    'create_task',
    'Create a follow-up task in HubSpot for an owner.',
    'low',
    {
      title: str('task title'),
      ownerId: str('owner the task is assigned to'),
      dueDate: dateTime('due date'),
      associatedObjectId: str('contact, deal or company the task is about'),
      notes: str('task notes'),
    },
    ['title'],
  ),
  // salesforce
  capability(
    'salesforce',
    'create_lead',
    'Create a lead in Salesforce.',
    'low',
    {
      email: email('lead email'),
      firstName: str('first name'),
      lastName: str('last name'),
      company: str('company name'),
      source: str('lead source'),
    },
    ['lastName', 'company'],
  ),
  capability(
    'salesforce',
    'update_opportunity',
    'Update a Salesforce opportunity: stage, amount, close date.',
    'low',
    {
      opportunityId: str('id of the opportunity'),
      stage: str('stage name to move to'),
      fields: { type: 'object', description: 'other fields to set, by API name' },
    },
    ['opportunityId'],
  ),
  capability(
    'salesforce',
    'create_task',
    'Create a follow-up task in Salesforce.',
    'low',
    {
      subject: str('task subject'),
      ownerId: str('assigned user'),
      whoId: str('lead or contact id'),
      dueDate: dateTime('due date'),
    },
    ['subject'],
  ),
  // zendesk
  capability(
    'zendesk',
    'create_ticket',
    'Create a Zendesk support ticket.',
    'low',
    {
      subject: str('ticket subject'),
      description: str('first comment of the ticket'),
      requesterEmail: email('who the ticket is for'),
      priority: str('priority', { enum: ['low', 'normal', 'high', 'urgent'] }),
      tags: list('tags'),
    },
    ['subject', 'description'],
  ),
  capability(
    'zendesk',
    'reply_ticket',
    'Reply to the requester on a Zendesk ticket (public comment).',
    'high',
    {
      ticketId: str('id of the ticket'),
      body: str('reply text'),
      public: bool('visible to the requester; false for an internal note'),
    },
    ['ticketId', 'body'],
  ),
  capability(
    'zendesk',
    'update_ticket',
    'Update a Zendesk ticket: status, priority, tags, assignee, internal note.',
    'low',
    {
      ticketId: str('id of the ticket'),
      status: str('new status', { enum: ['new', 'open', 'pending', 'hold', 'solved', 'closed'] }),
      priority: str('priority', { enum: ['low', 'normal', 'high', 'urgent'] }),
      assignee: str('agent or group to assign'),
      tags: list('tags to set'),
      internalNote: str('private note for agents'),
    },
    ['ticketId'],
  ),
  // jira
  capability(
    'jira',
    'create_issue',
    'Create a Jira issue (bug, task, story) in a project.',
    'low',
    {
      project: str('project key, e.g. OPS'),
      issueType: str('issue type, e.g. Bug or Task'),
      summary: str('one-line summary'),
      description: str('details'),
      labels: list('labels'),
    },
    ['project', 'summary'],
  ),
  capability(
    'jira',
    'transition_issue',
    'Move a Jira issue to another status.',
    'low',
    { issueKey: str('issue key, e.g. OPS-12'), toStatus: str('target status, e.g. Done') },
    ['issueKey', 'toStatus'],
  ),
  capability(
    'jira',
    'comment_issue',
    'Add a comment to a Jira issue.',
    'low',
    { issueKey: str('issue key'), body: str('comment text') },
    ['issueKey', 'body'],
  ),
  // github
  capability(
    'github',
    'create_issue',
    'Open an issue in a GitHub repository.',
    'low',
    { repository: str('owner/name'), title: str('issue title'), body: str('issue body'), labels: list('labels') },
    ['repository', 'title'],
  ),
  capability(
    'github',
    'comment_pull_request',
    'Comment on a GitHub pull request.',
    'low',
    { repository: str('owner/name'), pullNumber: int('pull request number', { minimum: 1 }), body: str('comment text') },
    ['repository', 'pullNumber', 'body'],
  ),
  capability(
    'github',
    'merge_pull_request',
    'Merge a GitHub pull request.',
    'high',
    {
      repository: str('owner/name'),
      pullNumber: int('pull request number', { minimum: 1 }),
      method: str('merge method', { enum: ['merge', 'squash', 'rebase'] }),
    },
    ['repository', 'pullNumber'],
  ),
  // notion
  capability(
    'notion',
    'create_page',
    'Create a Notion page (document, notes, report) under a parent page or database.',
    'low',
    {
      parent: str('parent page or database'),
      title: str('page title'),
      content: str('page content (markdown)'),
      template: str('template to start from'),
    },
    ['parent', 'title'],
  ),
  capability(
    'notion',
    'update_database_item',
    'Update a row of a Notion database (tracker).',
    'low',
    {
      database: str('database name or id'),
      itemId: str('row to update'),
      properties: { type: 'object', description: 'properties to set, by name' },
    },
    ['database', 'itemId', 'properties'],
  ),
  // stripe
  capability(
    'stripe',
    'create_invoice',
    'Create and send a Stripe invoice to a customer.',
    'high',
    {
      customerId: str('Stripe customer id'),
      amount: num('amount in the smallest currency unit', { minimum: 0 }),
      currency: str('ISO currency code', { default: 'usd' }),
      description: str('invoice line description'),
      dueDate: dateTime('due date'),
    },
    ['customerId', 'amount'],
  ),
  capability(
    'stripe',
    'refund_payment',
    'Refund a Stripe payment, fully or in part.',
    'high',
    {
      paymentId: str('payment intent or charge id'),
      amount: num('amount to refund; the whole payment when absent', { minimum: 0 }),
      reason: str('reason'),
    },
    ['paymentId'],
  ),
  capability(
    'stripe',
    'create_customer',
    'Create a customer in Stripe.',
    'low',
    { email: email('billing email'), name: str('customer name'), metadata: { type: 'object', description: 'metadata to store' } },
    ['email'],
  ),
  // docusign
  capability(
    'docusign',
    'send_envelope',
    'Send a document to recipients for electronic signature.',
    'high',
    {
      templateId: str('template to use'),
      documentUrl: str('document to send when no template', { format: 'uri' }),
      signers: list('signer email addresses'),
      subject: str('email subject'),
    },
    ['signers'],
  ),
  // google-drive
  capability(
    'google-drive',
    'create_folder',
    'Create a folder in Google Drive.',
    'low',
    { name: str('folder name'), parentFolderId: str('parent folder; root when absent') },
    ['name'],
  ),
  capability(
    'google-drive',
    'upload_file',
    'Upload or save a file into a Google Drive folder.',
    'low',
    {
      folderId: str('destination folder'),
      name: str('file name'),
      content: str('file content or source URL'),
      mimeType: str('MIME type'),
    },
    ['folderId', 'name', 'content'],
  ),
  capability(
    'google-drive',
    'share_file',
    'Share a Google Drive file or folder with people.',
    'high',
    {
      fileId: str('file or folder id'),
      emails: list('people to share with'),
      role: str('access level', { enum: ['reader', 'commenter', 'writer'], default: 'reader' }),
    },
    ['fileId', 'emails'],
  ),
  // twilio
  capability(
    'twilio',
    'send_sms',
    'Send an SMS text message to a phone number.',
    'high',
    { to: str('phone number in E.164 form'), body: str('message text') },
    ['to', 'body'],
  ),
  // quickbooks
  capability(
    'quickbooks',
    'create_invoice',
    'Create a QuickBooks invoice for a customer.',
    'high',
    {
      customer: str('customer name or id'),
      lines: { type: 'array', description: 'invoice lines as "description: amount"', items: { type: 'string' } },
      dueDate: dateTime('due date'),
      sendToCustomer: bool('email the invoice to the customer'),
    },
    ['customer', 'lines'],
  ),
  capability(
    'quickbooks',
    'record_expense',
    'Record an expense or bill in QuickBooks.',
    'low',
    {
      vendor: str('vendor name'),
      amount: num('amount', { minimum: 0 }),
      category: str('expense account or category'),
      date: str('date of the expense', { format: 'date' }),
      receiptUrl: str('link to the receipt'),
    },
    ['vendor', 'amount'],
  ),
  // greenhouse
  capability(
    'greenhouse',
    'create_candidate',
    'Create a candidate in Greenhouse for a job.',
    'low',
    { firstName: str('first name'), lastName: str('last name'), email: email('candidate email'), jobId: str('job applied for') },
    ['firstName', 'lastName'],
  ),
  capability(
    'greenhouse',
    'schedule_interview',
    'Schedule an interview for a candidate with interviewers.',
    'low',
    {
      applicationId: str('candidate application'),
      interviewers: list('interviewer emails'),
      start: dateTime('start time'),
      durationMinutes: int('length in minutes', { minimum: 5, maximum: 480 }),
    },
    ['applicationId', 'interviewers', 'start'],
  ),
  capability(
    'greenhouse',
    'move_candidate_stage',
    'Move a candidate to another hiring stage (advance or reject).',
    'low',
    { applicationId: str('candidate application'), toStage: str('target stage, e.g. Onsite') },
    ['applicationId', 'toStage'],
  ),
  // bamboohr
  capability(
    'bamboohr',
    'create_employee',
    'Create an employee record in BambooHR.',
    'low',
    {
      firstName: str('first name'),
      lastName: str('last name'),
      workEmail: email('work email'),
      startDate: str('start date', { format: 'date' }),
      department: str('department'),
    },
    ['firstName', 'lastName'],
  ),
  capability(
    'bamboohr',
    'update_employee',
    'Update fields of a BambooHR employee record.',
    'low',
    { employeeId: str('id of the employee'), fields: { type: 'object', description: 'fields to set, by name' } },
    ['employeeId', 'fields'],
  ),
  // http
  capability(
    'http',
    'request',
    'Call any HTTP API endpoint.',
    'high',
    {
      method: str('HTTP method', { enum: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] }),
      url: str('absolute URL', { format: 'uri' }),
      headers: { type: 'object', description: 'request headers, by name' },
      body: str('request body (JSON text)'),
    },
    ['method', 'url'],
  ),
];

const triggers: CatalogTrigger[] = [
  trigger('gmail', 'new_email', 'A new email arrives in the mailbox.', {
    from: str('only mail from this address or domain'),
    subjectContains: str('only mail whose subject contains this text'),
    label: str('only mail with this label'),
  }),
  trigger('google-calendar', 'event_starting', 'A calendar event is about to start.', {
    calendarId: str('calendar to watch; primary when absent'),
    minutesBefore: int('how long before the start to fire', { minimum: 0, maximum: 10_080, default: 15 }),
  }),
  trigger('slack', 'new_message', 'A message is posted in a channel the app can read.', {
    channel: str('only messages in this channel, e.g. #help'),
  }),
  trigger('slack', 'mention', 'Someone mentions the employee or a handle in Slack.', {
    channel: str('only mentions in this channel'),
    handle: str('handle mentioned, e.g. @oncall; the employee itself when absent'),
  }),
  trigger('hubspot', 'new_contact', 'A contact is created in HubSpot.', {
    lifecycleStage: str('only contacts in this lifecycle stage, e.g. lead'),
  }),
  trigger(
    'hubspot',
    'deal_stage_changed',
    'A HubSpot deal moves to a stage.',
    { stage: str('stage the deal moves to, e.g. Closed Won'), pipeline: str('only deals in this pipeline') },
    ['stage'],
  ),
  trigger('salesforce', 'new_lead', 'A lead is created in Salesforce.', { source: str('only leads from this lead source') }),
  trigger(
    'salesforce',
    'opportunity_stage_changed',
    'A Salesforce opportunity moves to a stage.',
    { stage: str('stage the opportunity moves to, e.g. Negotiation') },
    ['stage'],
  ),
  trigger('zendesk', 'new_ticket', 'A support ticket is created in Zendesk.', {
    priority: str('only tickets of this priority', { enum: ['low', 'normal', 'high', 'urgent'] }),
    tag: str('only tickets with this tag'),
  }),
  trigger('zendesk', 'ticket_updated', 'A Zendesk ticket changes (status, priority, comment).', {
    status: str('only when the ticket reaches this status'),
    priority: str('only when the ticket has this priority', { enum: ['low', 'normal', 'high', 'urgent'] }),
  }),
  trigger('jira', 'issue_created', 'An issue is created in Jira.', {
    project: str('only issues of this project key'),
    issueType: str('only issues of this type, e.g. Bug'),
  }),
  trigger('jira', 'issue_transitioned', 'A Jira issue moves to another status.', {
    project: str('only issues of this project key'),
    toStatus: str('only transitions to this status, e.g. Done'),
  }),
  trigger('github', 'pull_request_opened', 'A pull request is opened in a GitHub repository.', {
    repository: str('only this repository (owner/name)'),
  }),
  trigger('github', 'issue_opened', 'An issue is opened in a GitHub repository.', {
    repository: str('only this repository (owner/name)'),
    label: str('only issues with this label'),
  }),
  trigger('notion', 'page_updated', 'A Notion page or database item changes.', { database: str('only items of this database') }),
  trigger('stripe', 'payment_failed', 'A Stripe payment attempt fails.', {
    minAmount: num('only failures of at least this amount', { minimum: 0 }),
  }),
  trigger('stripe', 'invoice_paid', 'A Stripe invoice is paid.', {
    minAmount: num('only invoices of at least this amount', { minimum: 0 }),
  }),
  trigger('docusign', 'envelope_completed', 'Every signer has signed a DocuSign envelope.', {
    templateId: str('only envelopes from this template'),
  }),
  trigger('google-drive', 'file_added', 'A file is added to a Google Drive folder.', { folder: str('folder to watch') }),
  trigger('twilio', 'sms_received', 'An SMS text message arrives at a Twilio number.', { to: str('receiving phone number') }),
  trigger('quickbooks', 'invoice_overdue', 'A QuickBooks invoice passes its due date unpaid.', {
    daysOverdue: int('days past due before firing', { minimum: 0, maximum: 365, default: 0 }),
  }),
  trigger('greenhouse', 'candidate_applied', 'A candidate applies to a job in Greenhouse.', {
    job: str('only applications to this job'),
  }),
  trigger('bamboohr', 'new_hire', 'A new hire is added in BambooHR.', { department: str('only hires in this department') }),
  trigger(
    'schedule',
    'cron',
    'Fires on a time schedule.',
    {
      expression: str('five-field cron expression, e.g. "0 9 * * 1" for Mondays at 09:00'),
      timezone: str('IANA time zone, e.g. Europe/Paris; UTC when absent'),
    },
    ['expression'],
  ),
  trigger('webhook', 'incoming_webhook', 'An external system calls the employee’s webhook URL.', {
    path: str('path of the webhook under the employee’s URL, e.g. /demo-request'),
  }),
];

/** Each entry with its vocabulary, so that the Connect Hub serves it with the catalog. */
const withVocabulary = <T extends { id: string }>(item: T, table: Readonly<Record<string, Vocabulary>>): T => {
  const vocabulary = table[item.id];
  return vocabulary ? { ...item, vocabulary } : item;
};

export const builtInCatalog: BuiltInCatalog = {
  providers,
  capabilities: capabilities.map((c) => withVocabulary(c, capabilityVocabulary)),
  triggers: triggers.map((t) => withVocabulary(t, triggerVocabulary)),
};

/**
 * Outgoing webhooks: the catalog's `webhook` provider has a trigger only, so its connector brings this capability
 * (the worker adds it to the org's catalog; a policy may name it like any tool of the catalog).
 */
export const webhookSendCapability: CatalogCapability = {
  id: 'webhook.send',
  providerId: 'webhook',
  name: 'send',
  description: 'POST a JSON event to a URL, signed like hireloop’s incoming webhooks.',
  risk: 'high',
  inputSchema: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'absolute URL to POST to', format: 'uri' },
      payload: { type: 'object', description: 'the JSON event' },
      secret: { type: 'string', description: 'HMAC-SHA256 key of x-hireloop-signature; unsigned when absent' },
    },
    required: ['url', 'payload'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { status: { type: 'integer', description: 'HTTP status of the answer' } },
    required: ['status'],
    additionalProperties: false,
  },
};

/** The capabilities hireloop's own connectors bring that the catalog does not list. */
export const connectorCapabilities: readonly CatalogCapability[] = [webhookSendCapability];

/** The development organisation and the providers it starts connected to. */
export const DEV_ORG = 'acme';
export const devOrgConnections: readonly string[] = [
  'gmail',
  'google-calendar',
  'slack',
  'hubspot',
  'zendesk',
  'jira',
  'google-drive',
  'notion',
  'schedule',
  'webhook',
  'http',
];
