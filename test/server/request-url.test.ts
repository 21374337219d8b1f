import { describe, expect, test } from 'bun:test'
import { urlOf } from '../../src/server/request-url'

describe('urlOf', () => {
	test('parses a request URL once and hands every caller the same object', () => {
		const request = new Request('http://127.0.0.1:8877/api/users/username/a.b?count=5&token=x')
		const first = urlOf(request)
		expect(first.pathname).toBe('/api/users/username/a.b')
		expect(first.searchParams.get('count')).toBe('5')
		expect(urlOf(request)).toBe(first)
		expect(urlOf(new Request(request.url))).not.toBe(first)
	})
})
