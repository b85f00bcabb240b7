import { bootService } from '@hireloop/platform';

const service = await bootService('gateway');
await service.listen();
