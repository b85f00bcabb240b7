import { memoryCircuits, memoryPolicies, memoryRateLimits } from '../src/tools/guards';
import { railStoresContract } from './rails-stores.contract';

railStoresContract('in memory', { policies: memoryPolicies, rates: memoryRateLimits, circuits: memoryCircuits });
