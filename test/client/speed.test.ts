import { describe, expect, it } from 'bun:test'
import { InstagramClient } from '../../src/client/client'
import type { IgApiError } from '../../src/client/errors'
import { DEFAULT_BUDGETS } from '../../src/client/rate-limit'
import { BUDGET_FACTORS, isSpeedMode, SPEED_MODES } from '../../src/client/speed'

const client = (speed?: (typeof SPEED_MODES)[number]) =>
	new InstagramClient({ baseURL: 'http://127.0.0.1:9', speed, rateLimitMaxWait: 0 })

/** How many calls of `category` pass at once before the client's own limiter refuses the next one. */
async function callsBeforeRefusal(ig: InstagramClient, category: string): Promise<number> {
	const limiter = ig.stats.limiter
	if (!limiter) throw new Error('no limiter')
	for (let count = 0; count < 1000; count++) {
		try {
			await limiter.acquire(category, 'test')
		} catch (error) {
			expect((error as IgApiError).kind).toBe('rate_limited')
			return count
		}
	}
	return Number.POSITIVE_INFINITY
}

describe('speed modes', () => {
	it('scale every budget: safe half, normal as defined, fast double, unlimited none', () => {
		expect(BUDGET_FACTORS).toEqual({ safe: 0.5, normal: 1, fast: 2, unlimited: null })
		const limits = (speed?: (typeof SPEED_MODES)[number]) => client(speed).stats.snapshot().rate_limits
		expect(client().speed).toBe('normal')
		for (const [category, budget] of Object.entries(DEFAULT_BUDGETS)) {
			expect(limits()?.[category]?.limit).toBe(budget.limit)
			expect(limits('normal')?.[category]?.limit).toBe(budget.limit)
			expect(limits('fast')?.[category]?.limit).toBe(budget.limit * 2)
			expect(limits('safe')?.[category]?.limit).toBe(Math.max(1, Math.round(budget.limit / 2)))
			expect(limits('fast')?.[category]?.window_seconds).toBe(budget.windowMs / 1000)
		}
		expect(limits('unlimited')).toBeNull()
	})

	it('the limiter enforces the scaled budgets (get_profile: 10 safe, 20 normal, 40 fast)', async () => {
		expect(await callsBeforeRefusal(client('safe'), 'get_profile')).toBe(10)
		expect(await callsBeforeRefusal(client('normal'), 'get_profile')).toBe(20)
		expect(await callsBeforeRefusal(client('fast'), 'get_profile')).toBe(40)
		expect(await callsBeforeRefusal(client('fast'), 'post_comment')).toBe(30)
		expect(client('unlimited').stats.limiter?.enabled).toBe(false)
	})

	it('switches the human-like pauses on in safe mode only; explicit options win', () => {
		expect(SPEED_MODES.map((speed) => client(speed).stats.snapshot().pauses)).toEqual([
			true,
			false,
			false,
			false
		])
		const explicit = new InstagramClient({ speed: 'fast', rateLimits: { get_profile: 5 }, delays: true })
		expect(explicit.stats.snapshot()).toMatchObject({ speed: 'fast', pauses: true })
		expect(explicit.stats.snapshot().rate_limits?.get_profile?.limit).toBe(5)
		expect(explicit.stats.snapshot().rate_limits?.get_feed?.limit).toBe(15)
		expect(isSpeedMode('turbo')).toBe(false)
		expect(isSpeedMode('fast')).toBe(true)
	})
})
