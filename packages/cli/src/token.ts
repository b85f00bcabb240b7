import { loadJwtSecret, signToken } from '@hireloop/platform';
import type { Command } from 'commander';

export function registerToken(program: Command): void {
  program
    .command('token')
    .description('print a signed JWT for a user of an org (dev secret unless JWT_SECRET is set)')
    .requiredOption('--user <userId>', 'the user id (sub claim)')
    .requiredOption('--org <orgId>', 'the organisation id (org claim)')
    .option('--role <role>', 'a role claim, e.g. admin')
    .option('--expires <duration>', 'lifetime, e.g. 12h or 30m', '12h')
    .action((options: { user: string; org: string; role?: string; expires: string }) => {
      const principal = { userId: options.user, orgId: options.org, ...(options.role ? { role: options.role } : {}) };
      console.log(signToken(principal, loadJwtSecret(), options.expires));
    });
}
