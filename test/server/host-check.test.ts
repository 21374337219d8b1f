import { describe, expect, it } from 'bun:test'
import { hostCheck } from '../../src/server/security'

const request = (host: string) => new Request(`http://${host}/api/status`, { headers: { host } })
const check = (allowed: ReturnType<typeof hostCheck>, host: string) =>
	allowed(request(host), new URL(`http://${host}/api/status`))

describe('hostCheck', () => {
	it('after accepting a Host, still refuses other names and ports', () => {
		const allowed = hostCheck('127.0.0.1', 8877)
		expect(check(allowed, '127.0.0.1:8877')).toBe(true)
		expect(check(allowed, '127.0.0.1:8877')).toBe(true)
		expect(check(allowed, 'evil.example:8877')).toBe(false)
		expect(check(allowed, '127.0.0.1:8878')).toBe(false)
		expect(check(allowed, 'localhost:8877')).toBe(true)
		expect(check(allowed, '127.0.0.1:8877')).toBe(true)
	})

	it('follows a port that becomes known or changes', () => {
		let port: number | undefined
		const allowed = hostCheck('127.0.0.1', () => port)
		expect(check(allowed, '127.0.0.1:9000')).toBe(true)
		port = 8877
		expect(check(allowed, '127.0.0.1:9000')).toBe(false)
		expect(check(allowed, '127.0.0.1:8877')).toBe(true)
		port = 8899
		expect(check(allowed, '127.0.0.1:8877')).toBe(false)
		expect(check(allowed, '127.0.0.1:8899')).toBe(true)
	})
})
