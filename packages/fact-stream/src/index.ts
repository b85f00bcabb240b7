export * from './consumer';
export * from './fact';
export * from './publisher';
