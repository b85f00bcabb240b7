import nlp from 'compromise';

for (const t of [
  'log each new hire in Personio',
  'reply in English',
  'hold the meeting in Berlin',
  'update the record in Workday',
  'add the task on Monday.com',
  'track it in Linear',
  'create a card on Trello',
  'post it in Google Chat',
  'send it to Anna on Friday',
  'file it in SharePoint',
  'customers in Germany',
  'log it in Zoho CRM',
  'add the lead to Pipedrive',
  'update the sheet in Excel',
  'raise it in ServiceNow',
  'message them on WhatsApp',
  'write it in Confluence',
  'share it in Loom',
  'invoice in Lexoffice',
  'book it in Outlook',
]) {
  const doc = nlp(t);
  console.log(
    t,
    '→',
    JSON.stringify(
      doc
        .json()[0]
        .terms.map((x: any) => [x.text, x.tags.join('|')])
        .slice(-3),
    ),
  );
}
