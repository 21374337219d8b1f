/**
 * The suggestion a mistyped command, action or kind gets: the one choice a slip of the hand away,
 * nothing when the word is far from every choice (a guess would mislead).
 */
import { expect, test } from 'bun:test'
import { didYouMean } from '../../src/cli-error'

const COMMANDS = [
	'playground',
	'agent-web',
	'ask',
	'collect',
	'jobs',
	'login',
	'logout',
	'watch',
	'analytics'
]

test('a dropped, doubled, swapped or wrong letter names the command', () => {
	expect(didYouMean('colect', COMMANDS)).toBe(" (did you mean 'collect'?)")
	expect(didYouMean('colllect', COMMANDS)).toBe(" (did you mean 'collect'?)")
	expect(didYouMean('cloelct', COMMANDS)).toBe(" (did you mean 'collect'?)")
	expect(didYouMean('clcetol', COMMANDS)).toBe('')
	expect(didYouMean('playgroudn', COMMANDS)).toBe(" (did you mean 'playground'?)")
	expect(didYouMean('analitycs', COMMANDS)).toBe(" (did you mean 'analytics'?)")
	expect(didYouMean('Watch', COMMANDS)).toBe(" (did you mean 'watch'?)")
	expect(didYouMean('wtach', COMMANDS)).toBe(" (did you mean 'watch'?)")
})

test('a short word gets a suggestion only one edit away; a far word gets none', () => {
	expect(didYouMean('jbs', COMMANDS)).toBe(" (did you mean 'jobs'?)")
	expect(didYouMean('job', COMMANDS)).toBe(" (did you mean 'jobs'?)")
	expect(didYouMean('as', COMMANDS)).toBe(" (did you mean 'ask'?)")
	expect(didYouMean('xy', COMMANDS)).toBe('')
	expect(didYouMean('frobnicate', COMMANDS)).toBe('')
	expect(didYouMean('', COMMANDS)).toBe('')
})

test('the closest choice wins; between equals, the first listed', () => {
	// 'logn' is one edit from login and two from logout.
	expect(didYouMean('logn', COMMANDS)).toBe(" (did you mean 'login'?)")
	expect(didYouMean('logot', COMMANDS)).toBe(" (did you mean 'logout'?)")
	expect(didYouMean('show', ['shaw', 'shew'])).toBe(" (did you mean 'shaw'?)")
})
