import { bootService } from '@hireloop/platform';

const service = await bootService('supervisor');
await service.listen();
