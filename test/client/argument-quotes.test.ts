/**
 * A refused argument is quoted in its error, shortened and made visible: a 2 MB username came back
 * whole (into an AI model's context, through MCP), and a right-to-left override came back raw.
 */
import { expect, test } from 'bun:test'
import { quotedValue, requirePk, requireTag, requireUsername } from '../../src/client/api/base'
import { IgArgumentError } from '../../src/client/errors'
import { KIND_SOURCES } from '../../src/jobs/kinds'

const messageOf = (run: () => unknown): string => {
	try {
		run()
	} catch (error) {
		expect(error).toBeInstanceOf(IgArgumentError)
		return (error as Error).message
	}
	throw new Error('nothing was refused')
}

test('a long value is quoted by its first 60 characters and its length', () => {
	const message = messageOf(() => requireUsername('a'.repeat(2_000_000)))
	expect(message).toBe(`Invalid username: "${'a'.repeat(60)}... (2000000 characters)"`)
	expect(messageOf(() => requirePk('user', `x${'1'.repeat(500)}`)).length).toBeLessThan(150)
	expect(messageOf(() => requireTag('#'.repeat(300))).length).toBeLessThan(150)
	expect(
		messageOf(() => KIND_SOURCES.likers.normalizeTarget(`https://example.com/${'p'.repeat(1000)}`)).length
	).toBeLessThan(150)
})

test('characters that hide or reorder text are quoted as escapes; short plain values stay as they are', () => {
	expect(quotedValue('evil\u202eexe.txt\u0007')).toBe('evil\\u202eexe.txt\\u0007')
	expect(messageOf(() => requireUsername('no spaces'))).toBe('Invalid username: "no spaces"')
	// An emoji is one character, never cut in half.
	expect(quotedValue('🌅'.repeat(61))).toBe(`${'🌅'.repeat(60)}... (61 characters)`)
})
