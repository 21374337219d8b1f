/**
 * What a person approves on the terminal reads as what runs: bidirectional overrides, isolates and
 * zero-width characters in the code, a message or the title are written as `\u202e`-style escapes
 * (a terminal with bidirectional support would reorder the text around them: "Trojan Source").
 */
import { afterEach, expect, test } from 'bun:test'
import { createTerminalApprover } from '../../src/agent/ask-approver'
import { revealInvisible } from '../../src/cli-error'

const originalWrite = process.stderr.write.bind(process.stderr)
afterEach(() => {
	process.stderr.write = originalWrite
})

test('revealInvisible writes each invisible or direction-changing character as its escape', () => {
	expect(revealInvisible('a\u202eb\u2066c\u2069d\u200be\u200ff\ufeffg')).toBe(
		'a\\u202eb\\u2066c\\u2069d\\u200be\\u200ff\\ufeffg'
	)
	expect(revealInvisible('Łuna ✨ مرحبا שלום')).toBe('Łuna ✨ مرحبا שלום')
})

test('text no one sees is revealed too: tag characters, fillers, soft hyphens, variation selectors', () => {
	// "Hi" spelled in tag characters, after a Hangul filler, a soft hyphen and a combining grapheme joiner.
	expect(revealInvisible('ok\u{E0048}\u{E0069}\u3164\u00ad\u034f\ufe01.')).toBe(
		'ok\\u{e0048}\\u{e0069}\\u3164\\u00ad\\u034f\\ufe01.'
	)
	// An emoji's presentation selector stays; one after a letter does not.
	expect(revealInvisible('I ❤️ it\ufe0f')).toBe('I ❤️ it\\ufe0f')
})

test('the terminal approval shows the code and the title with those characters escaped', async () => {
	let shown = ''
	process.stderr.write = ((chunk: string | Uint8Array) => {
		shown += String(chunk)
		return true
	}) as typeof process.stderr.write
	const { approver } = createTerminalApprover({ prompt: async () => 'n' })
	const allowed = await approver({
		id: '1',
		kind: 'code_run',
		title: 'Read \u202eprofile',
		detail: "const note = 'read only \u202e'; await ig.friendships.follow('1000000002') // \u2066'"
	})
	expect(allowed).toBe(false)
	expect(shown).toContain('Read \\u202eprofile')
	expect(shown).toContain("'read only \\u202e'; await ig.friendships.follow('1000000002') // \\u2066'")
	expect(shown).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/)
})
