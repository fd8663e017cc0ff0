// The field error helpers config validation uses live with the framework, shared with plugin args.
export * from '../framework/field_errors.js';
