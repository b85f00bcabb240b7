import { describe, expect, it } from 'vitest';
import { summaryBlocks } from '../src/runs';

describe("a run's summary as its lines say it", () => {
  it('given a head line and "- " lines, then a paragraph and a list of those lines, in order', () => {
    const summary = [
      'Refund when a zendesk ticket asks for a refund completed.',
      '- step-1 (stripe.refund_payment): succeeded',
      '- step-2 (slack.post_message): skipped — its condition does not hold',
      'Steps not run are left to do.',
      '* step-3 (zendesk.reply): rejected',
    ].join('\n');
    expect(summaryBlocks(summary)).toEqual([
      { kind: 'p', text: 'Refund when a zendesk ticket asks for a refund completed.' },
      {
        kind: 'ul',
        items: [
          'step-1 (stripe.refund_payment): succeeded',
          'step-2 (slack.post_message): skipped — its condition does not hold',
        ],
      },
      { kind: 'p', text: 'Steps not run are left to do.' },
      { kind: 'ul', items: ['step-3 (zendesk.reply): rejected'] },
    ]);
  });

  it('given one line, or blank lines, then paragraphs only', () => {
    expect(summaryBlocks('Nothing was done.\n\n')).toEqual([{ kind: 'p', text: 'Nothing was done.' }]);
  });
});
