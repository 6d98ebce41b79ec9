export * from './web-server';
export * from './renderer-dir';
export * from './request-guard';
