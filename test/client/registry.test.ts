import { describe, expect, it } from 'bun:test'
import { API_GROUPS, InstagramClient } from '../../src/client/client'
import { invokeMethod, methodRegistry } from '../../src/client/registry'

/** `group.method` for every public method on the client's group objects. */
function clientMethods(): string[] {
	const ig = new InstagramClient({ baseURL: 'http://127.0.0.1:9' }) as unknown as Record<string, object>
	return API_GROUPS.flatMap((group) =>
		Object.getOwnPropertyNames(Object.getPrototypeOf(ig[group]))
			.filter((name) => name !== 'constructor')
			.map((name) => `${group}.${name}`)
	)
}

describe('methodRegistry', () => {
	it('lists exactly the client methods, each once', () => {
		const registered = methodRegistry.map((method) => method.path)
		expect(new Set(registered).size).toBe(registered.length)
		expect([...registered].sort()).toEqual(clientMethods().sort())
	})

	it('marks exactly the six writes as write', () => {
		expect(
			methodRegistry
				.filter((method) => method.access === 'write')
				.map((method) => method.path)
				.sort()
		).toEqual([
			'direct.sendText',
			'friendships.follow',
			'friendships.unfollow',
			'media.comment',
			'media.like',
			'media.unlike'
		])
	})

	it('describes every method and parameter', () => {
		for (const method of methodRegistry) {
			expect(method.path).toBe(`${method.group}.${method.name}`)
			expect(method.description.length).toBeGreaterThan(5)
			expect(method.returns.length).toBeGreaterThan(0)
			for (const param of method.params) expect(param.name && param.type && param.description).toBeTruthy()
		}
	})

	it('matches the parameter count of each implementation (options included)', () => {
		const ig = new InstagramClient({ baseURL: 'http://127.0.0.1:9' }) as unknown as Record<
			string,
			Record<string, unknown>
		>
		for (const method of methodRegistry) {
			const implementation = ig[method.group]?.[method.name] as (...args: unknown[]) => unknown
			const required = method.params.filter((param) => !param.optional).length
			expect(implementation.length).toBeLessThanOrEqual(method.params.length + 1)
			expect(implementation.length).toBeGreaterThanOrEqual(required)
		}
	})
})

describe('invokeMethod', () => {
	it('calls a registered method and refuses others', async () => {
		const ig = new InstagramClient({ baseURL: 'http://127.0.0.1:9' })
		await expect(invokeMethod(ig, 'users.getByUsername', ['luna.explorer'])).rejects.toMatchObject({
			kind: 'login_required'
		})
		await expect(invokeMethod(ig, 'transport.send', [{}])).rejects.toBeInstanceOf(TypeError)
		await expect(invokeMethod(ig, 'users.constructor', [])).rejects.toBeInstanceOf(TypeError)
	})
})
