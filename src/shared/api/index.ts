export * from './job';
export * from './upload';
export * from './downloads';
export * from './errors';
export * from './render-config';
export * from './analysis';
export * from './workers';
export * from './job-frames';
