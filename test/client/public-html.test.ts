import { describe, expect, it } from 'bun:test'
import { decodeEntities, parseCount, parseProfileHtml } from '../../src/client/api/public-html'
import { normalizeUser } from '../../src/client/normalize/user'
import { fixtureText } from '../support/upstream'

describe('profile HTML strategy', () => {
	it('reads window._sharedData first, ids exact', () => {
		const result = parseProfileHtml(fixtureText('profile_page.shared_data.html'), 'nasa')
		if (result.kind !== 'profile') throw new Error(`expected a profile, got ${result.kind}`)
		const user = normalizeUser(result.user)
		expect(user).toMatchObject({
			pk: '528817151',
			username: 'nasa',
			follower_count: 97_000_000,
			media_count: 4200
		})
		const edges = (result.user.edge_owner_to_timeline_media as { edges: { node: { id: unknown } }[] }).edges
		expect(edges[0]?.node.id).toBe('3842790443716764595')
	})

	it('reads JSON-LD when there is no shared data', () => {
		const result = parseProfileHtml(fixtureText('profile_page.json_ld.html'), 'luna.explorer')
		if (result.kind !== 'profile') throw new Error(`expected a profile, got ${result.kind}`)
		expect(normalizeUser(result.user)).toMatchObject({
			pk: '1000000002',
			username: 'luna.explorer',
			full_name: 'Luna Explorer',
			biography: 'Chasing light',
			follower_count: 263,
			media_count: 120
		})
	})

	it('falls back to the title and og: meta tags, decoding entities and K/M counts', () => {
		const result = parseProfileHtml(fixtureText('profile_page.meta.html'), 'cafe.co')
		if (result.kind !== 'profile') throw new Error(`expected a profile, got ${result.kind}`)
		expect(normalizeUser(result.user)).toMatchObject({
			pk: '77777777',
			username: 'cafe.co',
			full_name: 'Café & Co',
			profile_pic_url: 'https://cdn.example/cafe.jpg?a=1&b=2',
			follower_count: 1_200_000,
			following_count: 1024,
			media_count: 3456
		})
	})

	it('reads a forged page in one pass: unclosed tags and repeated markers do not make it backtrack', () => {
		// Each prefix made one of the former patterns quadratic: 80 kB of `<meta ` held the event
		// loop for 1.7 s, so these 250 kB took minutes; the profile after them is still found.
		const forged = [
			'window._sharedData={'.repeat(12_500),
			'<script type="application/ld+json"'.repeat(7_000),
			'<meta '.repeat(40_000),
			'>',
			fixtureText('profile_page.meta.html')
		].join('')
		const result = parseProfileHtml(forged, 'cafe.co')
		if (result.kind !== 'profile') throw new Error(`expected a profile, got ${result.kind}`)
		expect(normalizeUser(result.user)).toMatchObject({ username: 'cafe.co', follower_count: 1_200_000 })
		// The former patterns took 39 s here on the test machine; one pass takes milliseconds.
	}, 20_000)

	it('reads a meta value holding the other quote, and ignores a tag whose name only starts alike', () => {
		const page =
			'<metadata property="og:image" content="https://evil.example/x.jpg">' +
			'<meta property="og:image" content="https://cdn.example/luna\'s.jpg">' +
			'<meta property="og:description" content="5 Followers, 6 Following, 7 Posts">' +
			"<title>Luna's (@luna)</title>"
		const result = parseProfileHtml(page, 'luna')
		if (result.kind !== 'profile') throw new Error(`expected a profile, got ${result.kind}`)
		expect(result.user).toMatchObject({
			full_name: "Luna's",
			profile_pic_url: "https://cdn.example/luna's.jpg",
			follower_count: 5
		})
	})

	it('reads a numeric reference beyond Unicode as U+FFFD instead of failing the request', () => {
		// String.fromCodePoint threw a RangeError: the playground answered 500 internal_error.
		expect(decodeEntities('a&#99999999;b&#x110000;c&#x1F30D;')).toBe('a\ufffdb\ufffdc🌍')
		const result = parseProfileHtml(
			'<title>&#99999999; (@luna)</title><meta property="og:description" content="1 Followers, 2 Following, 3 Posts">',
			'luna'
		)
		expect(result).toMatchObject({ kind: 'profile', user: { full_name: '\ufffd', follower_count: 1 } })
	})

	it('recognises the login wall', () => {
		expect(parseProfileHtml(fixtureText('profile_page.login_wall.html'), 'nasa')).toEqual({
			kind: 'login_wall'
		})
	})

	it('yields nothing for a page without profile data', () => {
		expect(parseProfileHtml('<html><title>Instagram</title></html>', 'nasa')).toEqual({ kind: 'none' })
	})

	it('parses counts with separators and suffixes', () => {
		expect(parseCount('1,234')).toBe(1234)
		expect(parseCount('12.5K')).toBe(12_500)
		expect(parseCount('3M')).toBe(3_000_000)
		expect(parseCount('1,5M')).toBe(1_500_000)
		expect(parseCount('n/a')).toBe(0)
	})
})
