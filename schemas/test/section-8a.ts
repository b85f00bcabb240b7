/** ARCHITECTURE §8a's table, verbatim: the catalog must hold at least these. */
export const section8a: Record<string, { capabilities: string[]; triggers: string[] }> = {
  gmail: { capabilities: ['send_email', 'search_email', 'label_email'], triggers: ['new_email'] },
  'google-calendar': { capabilities: ['create_event', 'find_free_slot', 'cancel_event'], triggers: ['event_starting'] },
  slack: { capabilities: ['post_message', 'create_channel', 'invite_user'], triggers: ['new_message', 'mention'] },
  hubspot: {
    capabilities: ['create_contact', 'update_contact', 'update_deal', 'create_task'],
    triggers: ['new_contact', 'deal_stage_changed'],
  },
  salesforce: {
    capabilities: ['create_lead', 'update_opportunity', 'create_task'],
    triggers: ['new_lead', 'opportunity_stage_changed'],
  },
  zendesk: { capabilities: ['create_ticket', 'reply_ticket', 'update_ticket'], triggers: ['new_ticket', 'ticket_updated'] },
  jira: {
    capabilities: ['create_issue', 'transition_issue', 'comment_issue'],
    triggers: ['issue_created', 'issue_transitioned'],
  },
  github: {
    capabilities: ['create_issue', 'comment_pull_request', 'merge_pull_request'],
    triggers: ['pull_request_opened', 'issue_opened'],
  },
  notion: { capabilities: ['create_page', 'update_database_item'], triggers: ['page_updated'] },
  stripe: { capabilities: ['create_invoice', 'refund_payment', 'create_customer'], triggers: ['payment_failed', 'invoice_paid'] },
  docusign: { capabilities: ['send_envelope'], triggers: ['envelope_completed'] },
  'google-drive': { capabilities: ['create_folder', 'upload_file', 'share_file'], triggers: ['file_added'] },
  twilio: { capabilities: ['send_sms'], triggers: ['sms_received'] },
  quickbooks: { capabilities: ['create_invoice', 'record_expense'], triggers: ['invoice_overdue'] },
  greenhouse: {
    capabilities: ['create_candidate', 'schedule_interview', 'move_candidate_stage'],
    triggers: ['candidate_applied'],
  },
  bamboohr: { capabilities: ['create_employee', 'update_employee'], triggers: ['new_hire'] },
  schedule: { capabilities: [], triggers: ['cron'] },
  webhook: { capabilities: [], triggers: ['incoming_webhook'] },
  http: { capabilities: ['request'], triggers: [] },
};

export const section8aCapabilityIds = Object.entries(section8a).flatMap(([p, { capabilities }]) =>
  capabilities.map((n) => `${p}.${n}`),
);
export const section8aTriggerIds = Object.entries(section8a).flatMap(([p, { triggers }]) => triggers.map((n) => `${p}.${n}`));

/** §8a: "The dev org `acme` starts connected to …" */
export const section8aAcme = [
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
