/**
 * The client's models under one import: re-exports `client/models/*.ts`, where each model is
 * declared once as a TypeBox schema (they also feed the playground's OpenAPI).
 *
 * Field names mirror Instagram's snake_case. Every id (`pk`, `id`, `*_id`) is a decimal string
 * because media pks exceed 2^53. Times are Instagram's unix seconds. Fields a source may lack are
 * present as `null` rather than missing, so records keep the same columns (CSV export).
 */
export * from './models/analytics'
export * from './models/common'
export * from './models/media'
export * from './models/social'
export * from './models/users'
