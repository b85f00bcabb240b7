import { bootService } from '@hireloop/platform';

const service = await bootService('trigger-router');
await service.listen();
