import { bootService } from '@hireloop/platform';

const service = await bootService('graph-creator');
await service.listen();
