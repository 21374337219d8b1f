import { describe, expect, it } from 'bun:test'
import {
	anonymousHeaders,
	authenticatedHeaders,
	clientHints,
	cookieHeader,
	formBody,
	jazoest,
	withFormContentType
} from '../../src/client/headers'

const SESSION = {
	sessionId: 'sid',
	csrfToken: 'abc',
	dsUserId: '42',
	mid: 'M',
	igDid: 'D',
	datr: 'T',
	rur: 'RUR'
}

describe('Instagram headers', () => {
	it('computes jazoest as "2" plus the sum of character codes', () => {
		expect(jazoest('abc')).toBe(`2${97 + 98 + 99}`)
	})

	it('writes a POST form with the fields that have a value, and jazoest only when logged in', () => {
		const fields = { user_id: '7', empty: '', gone: undefined, none: null, flag: false, n: 3 }
		const loggedIn = new URLSearchParams(formBody(fields, 'abc'))
		expect([...loggedIn]).toEqual([
			['user_id', '7'],
			['empty', ''],
			['flag', 'false'],
			['n', '3'],
			['jazoest', jazoest('abc')]
		])
		expect(new URLSearchParams(formBody(fields)).has('jazoest')).toBe(false)
		expect(formBody()).toBe('')
	})

	it('gives form headers the form content type without changing the kept ones', () => {
		const form = new Headers({ 'content-type': 'application/x-www-form-urlencoded', a: '1' })
		expect(withFormContentType(form)).toBe(form)
		const json = new Headers({ 'content-type': 'application/json', a: '1' })
		const copy = withFormContentType(json)
		expect(copy).not.toBe(json)
		expect(copy.get('content-type')).toBe('application/x-www-form-urlencoded')
		expect(copy.get('a')).toBe('1')
		expect(json.get('content-type')).toBe('application/json')
		expect(withFormContentType(new Headers()).get('content-type')).toBe('application/x-www-form-urlencoded')
	})

	it('writes cookies in the fixed order, quoting rur', () => {
		expect(cookieHeader(SESSION)).toBe(
			'ig_did=D; mid=M; ig_nrcb=1; datr=T; dpr=1.5; ds_user_id=42; ps_l=1; ps_n=1; csrftoken=abc; sessionid=sid; rur="RUR"; wd=1707x932'
		)
	})

	it('omits optional cookies that are empty', () => {
		expect(cookieHeader({ sessionId: 's', csrfToken: 'c', dsUserId: '1' })).toBe(
			'ig_nrcb=1; dpr=1.5; ds_user_id=1; ps_l=1; ps_n=1; csrftoken=c; sessionid=s; wd=1707x932'
		)
	})

	it('derives client hints from the user agent', () => {
		const mac = clientHints(
			'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 Chrome/139.0.1.2 Safari/537.36'
		)
		expect(mac['sec-ch-ua-platform']).toBe('"macOS"')
		expect(mac['sec-ch-ua']).toContain('v="139"')
		expect(mac['sec-ch-ua-full-version-list']).toContain('139.0.1.2')
		expect(clientHints('Mozilla/5.0 (X11; Linux x86_64)')['sec-ch-ua-platform']).toBe('"Linux"')
		expect(clientHints('curl/8')['sec-ch-ua']).toContain('v="142"')
	})

	it('sends the authenticated profile without HTTP/2 pseudo-headers', () => {
		const headers = authenticatedHeaders(SESSION, 'https://www.instagram.com')
		expect(headers['x-ig-app-id']).toBe('1217981644879628')
		expect(headers['x-csrftoken']).toBe('abc')
		expect(headers['x-ig-www-claim']).toBe('0')
		expect(headers['x-instagram-ajax']).toBe('1034642761')
		expect(headers['x-asbd-id']).toBe('359341')
		expect(Object.keys(headers).some((name) => name.startsWith(':'))).toBe(false)
	})

	it('never puts a cookie or CSRF header on anonymous profiles', () => {
		for (const profile of ['html', 'web', 'mobile', 'graphql_docid'] as const) {
			const headers = anonymousHeaders(profile, 'https://www.instagram.com', 0)
			expect(headers.cookie).toBeUndefined()
			expect(headers['x-csrftoken']).toBeUndefined()
		}
		expect(anonymousHeaders('mobile', 'https://www.instagram.com', 0)['x-ig-app-id']).toBe('936619743392459')
		expect(anonymousHeaders('web', 'https://www.instagram.com', 0)['x-ig-app-id']).toBe('1217981644879628')
		expect(anonymousHeaders('graphql_docid', 'https://www.instagram.com', 0)['x-fb-lsd']).toBe('AVqbxe3J_YA')
	})

	it('rotates the anonymous user agent', () => {
		const agents = new Set(
			[0, 1, 2].map((rotation) => anonymousHeaders('web', 'https://x', rotation)['user-agent'])
		)
		expect(agents.size).toBe(3)
	})
})
