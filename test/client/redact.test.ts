/**
 * Redaction finds a secret in every encoding it travels in, and any session cookie value.
 */
import { describe, expect, test } from 'bun:test'
import { redactSecrets, redactValue } from '../../src/client/redact'

const sessionId = '1000000001%3AsecretSession%3A12%3AAYdValue'
const decoded = '1000000001:secretSession:12:AYdValue'

describe('redactSecrets', () => {
	test('removes the raw, URL-encoded, URL-decoded and JSON-escaped spellings', () => {
		const quoted = 'key"with\\quote/and space'
		const spellings = [
			sessionId,
			decoded,
			sessionId.replaceAll('%3A', '%3a'),
			encodeURIComponent(sessionId),
			JSON.stringify(decoded).slice(1, -1)
		]
		for (const spelling of spellings) {
			const text = redactSecrets(`before ${spelling} after`, [sessionId])
			expect(text).toBe('before [redacted] after')
		}
		for (const spelling of [
			quoted,
			JSON.stringify(quoted).slice(1, -1),
			encodeURIComponent(quoted),
			new URLSearchParams({ v: quoted }).toString().slice(2)
		]) {
			expect(redactSecrets(`x ${spelling} y`, [quoted])).toBe('x [redacted] y')
		}
	})

	test('removes any sessionid or csrftoken value, known or not', () => {
		const text = redactSecrets(
			'Cookie: sessionid=someone-elses; csrftoken=abc123; ds_user_id=1 {"sessionid":"zzz9"} ?csrftoken=q1w2',
			[]
		)
		for (const value of ['someone-elses', 'abc123', 'zzz9', 'q1w2']) expect(text).not.toContain(value)
		expect(text).toContain('ds_user_id=1')
	})

	test('removes the credentials of any URL, and only those', () => {
		expect(redactSecrets('via http://alice:pr0xy@127.0.0.1:8080 and https://bob@proxy.example/x', [])).toBe(
			'via http://[redacted]@127.0.0.1:8080 and https://[redacted]@proxy.example/x'
		)
		expect(redactSecrets('see https://www.instagram.com/p/abc/ @luna mail me@example.com', [])).toBe(
			'see https://www.instagram.com/p/abc/ @luna mail me@example.com'
		)
	})

	test('leaves ordinary text and short secrets alone', () => {
		expect(redactSecrets('a session of 12 photos', ['12', '', undefined, null])).toBe(
			'a session of 12 photos'
		)
	})
})

describe('redactValue', () => {
	test('applies to every string of a value, keys included, without touching prototypes', () => {
		const value = JSON.parse(
			`{"bio":"${decoded}","list":["x ${decoded}",3,null],"${decoded}":true,"__proto__":{"a":1}}`
		)
		const clean = redactValue(value, (text) => redactSecrets(text, [sessionId])) as Record<string, unknown>
		expect(JSON.stringify(clean)).not.toContain('secretSession')
		expect(clean.list).toEqual(['x [redacted]', 3, null])
		expect(Object.getPrototypeOf({})).toEqual(Object.prototype)
		expect(({} as Record<string, unknown>).a).toBeUndefined()
	})
})
