export * from './accounts.ts';
export * from './envelope.ts';
export * from './errors.ts';
export * from './fields.ts';
export * from './lang.ts';
export * from './phone.ts';
export * from './staff.ts';
