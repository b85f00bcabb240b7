import { bootService } from '@hireloop/platform';

const service = await bootService('event-store');
await service.listen();
