import { describe, expect, it, spyOn } from 'bun:test'
import { hasLongBareInteger, parseUpstreamJson, toId } from '../../src/client/json'

describe('parseUpstreamJson', () => {
	it('keeps integers beyond 2^53 exact, as strings', () => {
		const parsed = parseUpstreamJson(
			'{"pk":3842790443716764595,"user":{"pk":1000000002},"lat":48.8566}'
		) as any
		expect(parsed.pk).toBe('3842790443716764595')
		expect(parsed.user.pk).toBe(1000000002)
		expect(parsed.lat).toBe(48.8566)
	})

	it('gives the same result as JSON.parse when nothing can lose precision', () => {
		const text = '{"a":[1,2.5,-3],"b":"x","c":null,"d":true}'
		expect(parseUpstreamJson(text)).toEqual(JSON.parse(text))
	})

	it('keeps negative and nested unsafe integers exact and leaves floats and exponents as numbers', () => {
		const parsed = parseUpstreamJson(
			'{"ids":[3823732431648645952,-9007199254740993],"big":1e25,"precise":1234567890123456.7,"small":12}'
		) as any
		expect(parsed.ids).toEqual(['3823732431648645952', '-9007199254740993'])
		expect(parsed.big).toBe(1e25)
		expect(typeof parsed.precise).toBe('number')
		expect(parsed.small).toBe(12)
	})

	it('would differ from JSON.parse, which rounds the same id', () => {
		expect(String(JSON.parse('{"pk":3842790443716764595}').pk)).not.toBe('3842790443716764595')
	})

	it('finds bare long integers wherever JSON allows a number: after spaces, newlines, a minus, at the top', () => {
		const parsed = parseUpstreamJson('{"a": 3842790443716764595,\n"b":[\n\t-3842790443716764596 ]}') as any
		expect(parsed).toEqual({ a: '3842790443716764595', b: ['-3842790443716764596'] })
		expect(parseUpstreamJson(' 3842790443716764597')).toBe('3842790443716764597')
		expect(parseUpstreamJson('3842790443716764598')).toBe('3842790443716764598')
	})

	it('parses without a reviver when long digit runs appear only inside strings (profile answers)', () => {
		const text = '{"id":"3842790443716764595","caption":"call 12345678901234567","n":12}'
		const parse = spyOn(JSON, 'parse')
		try {
			expect(parseUpstreamJson(text)).toEqual({
				id: '3842790443716764595',
				caption: 'call 12345678901234567',
				n: 12
			})
			expect(parse.mock.calls.map((call) => call.length)).toEqual([1])
		} finally {
			parse.mockRestore()
		}
	})

	it('throws SyntaxError on invalid JSON', () => {
		expect(() => parseUpstreamJson('{"pk": 3842790443716764595,')).toThrow()
		expect(() => parseUpstreamJson('<html>')).toThrow(SyntaxError)
	})

	it('normalises ids of any type to strings', () => {
		expect(toId(12)).toBe('12')
		expect(toId(3842790443716764595n)).toBe('3842790443716764595')
		expect(toId('7')).toBe('7')
		expect(toId(undefined)).toBe('')
	})
})

describe('hasLongBareInteger', () => {
	it('sees bare 16+ digit integers and skips digit runs inside strings', () => {
		expect(hasLongBareInteger('{"pk":3842790443716764595}')).toBe(true)
		expect(hasLongBareInteger('[1,\r\n -3842790443716764595]')).toBe(true)
		expect(hasLongBareInteger('3842790443716764595')).toBe(true)
		expect(hasLongBareInteger('{"pk":1000000002,"id":"3842790443716764595"}')).toBe(false)
		const urls = Array.from({ length: 300 }, (_, index) => `"https://x/${17841400000000000 + index}_n.jpg"`)
		expect(hasLongBareInteger(`{"urls":[${urls.join(',')}],"n":123456789012345}`)).toBe(false)
	})

	it('finds a bare integer after strings that hold longer digit runs', () => {
		const ids = Array.from({ length: 100 }, (_, index) => `{"fbid_v2":"1784140${8514496350 + index}"}`)
		expect(hasLongBareInteger(`{"users":[${ids.join(',')}]}`)).toBe(false)
		expect(hasLongBareInteger(`{"users":[${ids.join(',')}],"pk":3842790443716764595}`)).toBe(true)
		expect(hasLongBareInteger('{"a":"x12345678901234567890","b": 12345678901234567}')).toBe(true)
		expect(hasLongBareInteger('{"a":"x12345678901234567890","b":"12345678901234567"}')).toBe(false)
	})

	it('agrees with the rule, written out plainly, on 20,000 random texts', () => {
		// The rule: a run of 16+ digits that starts a number (after an optional minus, white space
		// and then the start of the text, `:`, `,` or `[`).
		const reference = (text: string): boolean => {
			for (const run of text.matchAll(/\d{16,}/g)) {
				let before = (run.index as number) - 1
				if (text[before] === '-') before--
				while (before >= 0 && ' \t\n\r'.includes(text[before] as string)) before--
				if (before < 0 || ':,['.includes(text[before] as string)) return true
			}
			return false
		}
		const alphabet = ['1', '2', '9', '0', '"', ':', ',', '[', ' ', '\n', '-', 'a', '{']
		let seed = 12345
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2147483648
			return seed / 2147483648
		}
		let found = 0
		for (let index = 0; index < 20_000; index++) {
			let text = ''
			const length = 16 + Math.floor(random() * 40)
			for (let at = 0; at < length; at++)
				text += alphabet[random() < 0.8 ? Math.floor(random() * 4) : Math.floor(random() * alphabet.length)]
			const expected = reference(text)
			if (expected) found++
			if (hasLongBareInteger(text) !== expected) throw new Error(`disagrees on ${JSON.stringify(text)}`)
		}
		// Both kinds of text were tried many times.
		expect(found).toBeGreaterThan(1000)
		expect(found).toBeLessThan(19_000)
	})
})
