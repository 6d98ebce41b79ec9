export * from './host';
export * from './local-node';
export * from './open-path';
