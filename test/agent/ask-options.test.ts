/**
 * `smkit ask` options: `--full-access` is `--permission full_access`, so giving it with another
 * level is bad usage naming both, while options that agree are fine.
 */
import { describe, expect, test } from 'bun:test'
import { parseAskOptions } from '../../src/agent/ask-options'
import { UsageError } from '../../src/cli-error'

/** cac's values for `smkit ask hi` plus `raw` (cac fills the defaults of options not given). */
const parse = (raw: Record<string, unknown>) => parseAskOptions('hi', raw)

describe('--permission and --full-access', () => {
	test('a level other than full_access given with --full-access is bad usage naming both', () => {
		for (const level of ['ask_every', 'ask_once']) {
			const call = () => parse({ permission: level, fullAccess: true })
			expect(call).toThrow(UsageError)
			expect(call).toThrow(`--permission ${level} and --full-access conflict`)
		}
		// As cac passes a switch written before a word (`--full-access=true`).
		expect(() => parse({ permission: 'ask_every', fullAccess: 'true' })).toThrow(UsageError)
	})

	test('options that agree are fine', () => {
		expect(parse({ permission: 'full_access', fullAccess: true }).permission).toBe('full_access')
		expect(parse({ fullAccess: true }).permission).toBe('full_access')
		expect(parse({ permission: 'ask_every' }).permission).toBe('ask_every')
		expect(parse({ permission: 'ask_every', fullAccess: false }).permission).toBe('ask_every')
		expect(parse({}).permission).toBe('ask_once')
	})
})
