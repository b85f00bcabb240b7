export * from './chain';
export * from './copy';
export * from './projections';
export * from './projector';
export * from './read';
export * from './replay';
export * from './tables';
export * from './timeline';
