export * from './host';
export * from './profiles/local-node';
export * from './jobs/open-path';
