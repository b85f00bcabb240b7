import { type Static, Type } from '@sinclair/typebox';
import { Id, Literals, Name, ShortText } from './common';
import { Limits } from './limits';

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
    outputSchema: Type.Optional(ObjectJsonSchema),
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
    eventSchema: Type.Optional(ObjectJsonSchema),
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
});

const trigger = (
  providerId: string,
  name: string,
  description: string,
  properties: Props = {},
  required: readonly string[] = [],
): CatalogTrigger => ({ id: `${providerId}.${name}`, providerId, name, description, paramsSchema: object(properties, required) });

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

export const builtInCatalog: BuiltInCatalog = { providers, capabilities, triggers };

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
