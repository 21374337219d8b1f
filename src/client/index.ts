/**
 * The client library's public surface in one import:
 *
 *   import { InstagramClient, createClientFromEnv, methodRegistry, IgError } from './client'
 */
export {
	API_GROUPS,
	type ApiGroupName,
	type ClientOptions,
	type Credentials,
	InstagramClient
} from './client'
export { createDemoClient } from './demo'
export { createClientFromEnv, credentialsFromEnv, loadEnvFile, mergeEnv, parseEnv } from './env'
export * from './errors'
export type { ListOptions, Page } from './pagination'
export { DEFAULT_BUDGETS, type RateCategory, type RateLimitOptions } from './rate-limit'
export { findMethod, invokeMethod, type MethodParam, type MethodSpec, methodRegistry } from './registry'
export { mediaPkFrom, pkToShortcode, shortcodeFromUrl, shortcodeToPk } from './shortcode'
export type { StatsSnapshot } from './stats'
export * from './types'
