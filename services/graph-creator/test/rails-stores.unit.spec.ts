import { memoryCircuits, memoryPolicies, memoryRateLimits } from '../src/tools/guards';
import { railStoresContract } from './rails-stores.contract';

railStoresContract('in memory', {
  policies: () => {
    const store = memoryPolicies();
    return { store, set: store.set };
  },
  rates: memoryRateLimits,
  circuits: memoryCircuits,
});
