/**
 * Whole-number options take every safe integer, and one beyond is refused with a message that
 * states the bound: `--limit 9007199254740991` (16 digits) was refused as "not a whole number of at
 * least 1".
 */
import { expect, test } from 'bun:test'
import { UsageError } from '../../src/cli-error'
import { collectOptions } from '../../src/jobs/collect'
import { parseOptions } from '../../src/server/options'
import { watchOptions } from '../../src/watch/cli'

/** The message of the UsageError `run` throws. */
function usageMessage(run: () => unknown): string {
	try {
		run()
	} catch (error) {
		if (error instanceof UsageError) return error.message
		throw error
	}
	throw new Error('no error thrown')
}

test('--limit takes whole numbers up to Number.MAX_SAFE_INTEGER', () => {
	expect(parseOptions(collectOptions, { limit: '9007199254740991' }).limit).toBe(Number.MAX_SAFE_INTEGER)
	expect(parseOptions(collectOptions, { limit: '1000000000000000' }).limit).toBe(1e15)
})

test('a whole number beyond is refused saying the bound, for every integer option without a maximum', () => {
	for (const given of ['9007199254740992', '99999999999999999999'])
		expect(usageMessage(() => parseOptions(collectOptions, { limit: given }))).toBe(
			`--limit must be a whole number from 1 to 9007199254740991, got '${given}'`
		)
	expect(usageMessage(() => parseOptions(watchOptions, { from: '12345678901234567' }))).toBe(
		"--from must be a whole number from 1 to 9007199254740991, got '12345678901234567'"
	)
	// Below the minimum, or not plain digits: the option's own message, as before.
	expect(usageMessage(() => parseOptions(collectOptions, { limit: '0' }))).toBe(
		"--limit must be a whole number of at least 1, got '0'"
	)
	expect(usageMessage(() => parseOptions(collectOptions, { limit: '0x10' }))).toBe(
		"--limit must be a whole number of at least 1, got '0x10'"
	)
})
