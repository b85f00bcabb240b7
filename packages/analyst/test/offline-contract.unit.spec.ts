import { OfflineAnalyst } from '../src/offline';
import { analystContract } from './analyst-contract';

analystContract('offline', () => ({ analyst: new OfflineAnalyst(), notes: [] }));
