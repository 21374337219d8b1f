import { describe, expect, it } from 'bun:test'
import { IgArgumentError } from '../../src/client/errors'
import { mediaPkFrom, pkToShortcode, shortcodeFromUrl, shortcodeToPk } from '../../src/client/shortcode'

/** Real shortcode/pk pairs (docs/instagram.md, "Media"). */
const REAL_PAIRS: [string, string][] = [
	['DVUVYxwAOOz', '3842790443716764595'],
	['DVMlhZ8ACcm', '3840609605554022182'],
	['DUQoGM4juNA', '3823732431648645952']
]

describe('shortcode conversion', () => {
	for (const [shortcode, pk] of REAL_PAIRS) {
		it(`decodes ${shortcode} to ${pk} and back`, () => {
			expect(shortcodeToPk(shortcode)).toBe(pk)
			expect(pkToShortcode(pk)).toBe(shortcode)
		})
	}

	it('treats leading A as zero digits that vanish on re-encoding', () => {
		expect(shortcodeToPk('ABC123xyz')).toBe('4593314372787')
		expect(pkToShortcode('4593314372787')).toBe('BC123xyz')
	})

	it('encodes the pk part of a "<pk>_<owner>" media id', () => {
		expect(pkToShortcode('3842790443716764595_1000000002')).toBe('DVUVYxwAOOz')
		expect(mediaPkFrom('3842790443716764595_1000000002')).toBe('3842790443716764595')
	})

	it('extracts shortcodes from post, reel and tv URLs', () => {
		expect(shortcodeFromUrl('https://www.instagram.com/p/DVUVYxwAOOz/')).toBe('DVUVYxwAOOz')
		expect(shortcodeFromUrl('https://instagram.com/reel/DVMlhZ8ACcm/?igsh=abc')).toBe('DVMlhZ8ACcm')
		expect(shortcodeFromUrl('instagram.com/tv/DUQoGM4juNA')).toBe('DUQoGM4juNA')
	})

	it('rejects what is not a shortcode, pk or post URL', () => {
		expect(() => shortcodeToPk('bad code!')).toThrow(IgArgumentError)
		expect(() => pkToShortcode('12a')).toThrow(IgArgumentError)
		expect(() => shortcodeFromUrl('https://example.com/p/x')).toThrow(IgArgumentError)
	})
})
