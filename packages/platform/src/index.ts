export * from './config';
export * from './http';
export * from './kafka';
export * from './lifecycle';
export * from './logger';
export * from './migrate';
export * from './postgres';
export * from './service';
