export * from './canonical';
export * from './consumer';
export * from './dlq';
export * from './fact';
export * from './offsets';
export * from './publisher';
