/**
 * Speed modes: one switch (`--speed`, `SMKIT_SPEED`) over the client's per-category budgets and its
 * human-like pauses.
 *
 * | mode        | budgets (calls per window) | pauses                                              |
 * |-------------|----------------------------|-----------------------------------------------------|
 * | `safe`      | half of normal (at least 1) | 0.5-2 s before each request (1.5-4 s anonymous), 3-8 s more after an error |
 * | `normal`    | the defaults of rate-limit.ts | none                                            |
 * | `fast`      | twice normal               | none                                                |
 * | `unlimited` | none                       | none (only with a warning: Instagram may block the account) |
 */
import { type Budget, DEFAULT_BUDGETS, type RateCategory, type RateLimitOptions } from './rate-limit'

/** The four speed modes, slowest first. */
export const SPEED_MODES = ['safe', 'normal', 'fast', 'unlimited'] as const

/** One speed mode. */
export type SpeedMode = (typeof SPEED_MODES)[number]

/** Factor applied to every budget's limit; null = no budgets. */
export const BUDGET_FACTORS: Record<SpeedMode, number | null> = {
	safe: 0.5,
	normal: 1,
	fast: 2,
	unlimited: null
}

/** The warning printed when a command starts with `unlimited`. */
export const unlimitedWarning = (source: '--speed unlimited' | 'SMKIT_SPEED=unlimited') =>
	`Warning: ${source} turns off the client-side rate limits and pauses; Instagram may rate-limit, challenge or block the account.`

/** Whether `value` names a speed mode. */
export function isSpeedMode(value: unknown): value is SpeedMode {
	return typeof value === 'string' && (SPEED_MODES as readonly string[]).includes(value)
}

/** Every category's budget scaled by `factor` (never below one call per window). */
export function scaledBudgets(factor: number): Record<RateCategory, Budget> {
	const result = {} as Record<RateCategory, Budget>
	for (const [category, budget] of Object.entries(DEFAULT_BUDGETS) as [RateCategory, Budget][])
		result[category] = { limit: Math.max(1, Math.round(budget.limit * factor)), windowMs: budget.windowMs }
	return result
}

/** The client options a speed mode stands for: `rateLimits` and `delays`. */
export function speedClientOptions(mode: SpeedMode): { rateLimits: RateLimitOptions; delays: boolean } {
	const factor = BUDGET_FACTORS[mode]
	return {
		rateLimits: factor === null ? false : factor === 1 ? {} : scaledBudgets(factor),
		delays: mode === 'safe'
	}
}
