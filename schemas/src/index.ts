export * from './common';
export * from './employee';
export * from './envelope';
export * from './facts';
export * from './limits';
export * from './prompts';
export * from './topics';
export * from './validate';
