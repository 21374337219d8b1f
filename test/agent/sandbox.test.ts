/**
 * The sandbox's normal behaviour: return values, console capture, the JSON-only `ig` bridge, errors
 * from the host, saveFile, limits and cancellation. Hostile programs are in sandbox-containment.
 */
import { describe, expect, it } from 'bun:test'
import { runInSandbox, type SandboxOptions } from '../../src/agent/sandbox'
import { IgApiError } from '../../src/client/errors'

interface Call {
	path: string
	args: unknown[]
}

/** A bridge whose host side records calls and answers from `answer`. */
function bridge(answer: (path: string, args: unknown[]) => unknown = (path, args) => ({ path, args })) {
	const calls: Call[] = []
	const options: SandboxOptions = {
		methods: ['users.getByUsername', 'users.getFollowers', 'media.like'],
		callMethod: async (path, args) => {
			calls.push({ path, args })
			return answer(path, args)
		},
		timeoutMs: 5000
	}
	return { calls, options }
}

describe('runInSandbox: values and output', () => {
	it('returns the body’s return value as JSON data', async () => {
		const result = await runInSandbox(
			'return { n: 1 + 1, list: [1, "a", null], nested: { ok: true } }',
			bridge().options
		)
		expect(result.ok).toBe(true)
		expect(result.returnValue).toEqual({ n: 2, list: [1, 'a', null], nested: { ok: true } })
		expect(result.error).toBeUndefined()
		expect(result.output).toBe('')
		expect(result.outputTruncated).toBe(false)
		expect(result.durationMs).toBeGreaterThanOrEqual(0)
	})

	it('leaves returnValue undefined when the body returns nothing', async () => {
		const result = await runInSandbox('const x = 1', bridge().options)
		expect(result).toMatchObject({ ok: true, output: '' })
		expect('returnValue' in result && result.returnValue !== undefined).toBe(false)
	})

	it('fails, saying so, when the returned value is too large to hand out of the engine', async () => {
		const result = await runInSandbox('return "y".repeat(30 * 1024 * 1024)', {
			...bridge().options,
			timeoutMs: 30_000
		})
		expect(result.ok).toBe(false)
		expect(result.error).toStartWith('The returned value is too large to hand back from the sandbox')
		expect('returnValue' in result && result.returnValue !== undefined).toBe(false)
	}, 60_000)

	it('describes values JSON cannot hold', async () => {
		const { options } = bridge()
		expect((await runInSandbox('return function named() {}', options)).returnValue).toBe('[Function named]')
		expect((await runInSandbox('return 12n ** 30n', options)).returnValue).toBe(`${12n ** 30n}n`)
		expect((await runInSandbox('return Symbol("tag")', options)).returnValue).toBe('Symbol(tag)')
		expect((await runInSandbox('return { when: new Date(0), big: 5n }', options)).returnValue).toEqual({
			when: '1970-01-01T00:00:00.000Z',
			big: '5n'
		})
		const cyclic = await runInSandbox('const a = { name: "a" }; a.self = a; return [a]', options)
		expect(cyclic.returnValue).toEqual([{ name: 'a', self: '[Circular]' }])
	})

	it('captures console.log/info/warn/error, one line each, objects as JSON', async () => {
		const code = `
			console.log('plain', 42, true, null, undefined)
			console.info({ a: 1, b: [1, 2] })
			console.warn('warned', 7n)
			console.error(new TypeError('bad thing'))
			console.log(() => 1, Symbol('s'))
		`
		const result = await runInSandbox(code, bridge().options)
		expect(result.ok).toBe(true)
		expect(result.output).toBe(
			'plain 42 true null undefined\n{"a":1,"b":[1,2]}\nwarned 7n\nTypeError: bad thing\n[Function anonymous] Symbol(s)\n'
		)
	})

	it('keeps output printed before an error', async () => {
		const result = await runInSandbox(
			'console.log("step 1"); console.log("step 2"); null.boom',
			bridge().options
		)
		expect(result.ok).toBe(false)
		expect(result.output).toBe('step 1\nstep 2\n')
		expect(result.error).toContain("cannot read property 'boom' of null")
	})

	it('cuts output at maxOutputChars and says so', async () => {
		const options = { ...bridge().options, maxOutputChars: 50 }
		const result = await runInSandbox(
			'for (let i = 0; i < 100; i++) console.log("line " + i); return "done"',
			options
		)
		expect(result.ok).toBe(true)
		expect(result.returnValue).toBe('done')
		expect(result.outputTruncated).toBe(true)
		expect(result.output.length).toBe(50)
		expect(result.output.startsWith('line 0\nline 1\n')).toBe(true)
	})

	it('reports syntax errors and runtime errors with the line in the code', async () => {
		const syntax = await runInSandbox('const x = 1\nlet = = 2', bridge().options)
		expect(syntax.ok).toBe(false)
		expect(syntax.error).toContain('SyntaxError')
		expect(syntax.error).toContain('code.js:2')
		const runtime = await runInSandbox('const a = 1\nconst b = 2\nundefinedFunction()', bridge().options)
		expect(runtime.error).toContain("ReferenceError: 'undefinedFunction' is not defined")
		expect(runtime.error).toContain('code.js:3')
	})
})

describe('runInSandbox: the ig bridge', () => {
	it('calls the host with JSON-parsed arguments and returns its JSON result', async () => {
		const { calls, options } = bridge((path, args) => ({ pk: '1000000002', username: args[0], from: path }))
		const code = `
			const user = await ig.users.getByUsername('luna.explorer')
			const page = await ig.users.getFollowers(user.pk, { count: 5, since: new Date(0), skip: undefined })
			return { user, page }
		`
		const result = await runInSandbox(code, options)
		expect(result.ok).toBe(true)
		expect(calls).toEqual([
			{ path: 'users.getByUsername', args: ['luna.explorer'] },
			// Dates become strings, undefined properties vanish: exactly what JSON carries.
			{ path: 'users.getFollowers', args: ['1000000002', { count: 5, since: '1970-01-01T00:00:00.000Z' }] }
		])
		expect(result.returnValue).toEqual({
			user: { pk: '1000000002', username: 'luna.explorer', from: 'users.getByUsername' },
			page: { pk: '1000000002', username: '1000000002', from: 'users.getFollowers' }
		})
	})

	it('drops trailing undefined arguments and sends middle ones as null', async () => {
		const { calls, options } = bridge(() => null)
		await runInSandbox('await ig.media.like("1", undefined, 3, undefined, undefined)', options)
		expect(calls[0].args).toEqual(['1', null, 3])
	})

	it('passes only JSON back: host objects, methods and big integers do not cross', async () => {
		class Page {
			items = [{ pk: 1n }]
			next_cursor = null
			secret = () => 'host function'
			more() {
				return 'host method'
			}
		}
		const { options } = bridge(() => new Page())
		const code = `
			const page = await ig.users.getFollowers('1')
			return { keys: Object.keys(page), pk: page.items[0].pk, more: typeof page.more, proto: Object.getPrototypeOf(page) === Object.prototype }
		`
		const result = await runInSandbox(code, options)
		expect(result.returnValue).toEqual({
			keys: ['items', 'next_cursor'],
			pk: '1',
			more: 'undefined',
			proto: true
		})
	})

	it('rejects arguments that are not JSON in the guest, before the host is called', async () => {
		const { calls, options } = bridge()
		const result = await runInSandbox(
			'const a = {}; a.a = a; try { await ig.users.getByUsername(a) } catch (error) { return error.message }',
			options
		)
		expect(result.returnValue).toContain('ig.users.getByUsername: arguments must be JSON data')
		expect(calls).toHaveLength(0)
	})

	it('exposes only the listed methods; others are undefined', async () => {
		const { options } = bridge()
		const code = `return {
			groups: Object.keys(ig).sort(),
			users: Object.keys(ig.users).sort(),
			missingMethod: typeof ig.users.delete,
			missingGroup: typeof ig.direct
		}`
		const result = await runInSandbox(code, options)
		expect(result.returnValue).toEqual({
			groups: ['media', 'users'],
			users: ['getByUsername', 'getFollowers'],
			missingMethod: 'undefined',
			missingGroup: 'undefined'
		})
		const called = await runInSandbox('await ig.direct.sendText("1", "hi")', options)
		expect(called.ok).toBe(false)
		expect(called.error).toContain("cannot read property 'sendText' of undefined")
	})

	it('turns a client IgError into a catchable Error with name, message and kind', async () => {
		const { options } = bridge(() => {
			throw new IgApiError('not_found', 'User nobody not found', {
				upstreamStatus: 404,
				body: { secret: 'x' }
			})
		})
		const caught = await runInSandbox(
			`try { await ig.users.getByUsername('nobody') } catch (error) {
				return { isError: error instanceof Error, name: error.name, message: error.message, kind: error.kind, body: error.body }
			}`,
			options
		)
		expect(caught.returnValue).toEqual({
			isError: true,
			name: 'IgApiError',
			message: 'User nobody not found',
			kind: 'not_found'
		})
		const uncaught = await runInSandbox(
			'console.log("before"); await ig.users.getByUsername("nobody")',
			options
		)
		expect(uncaught.ok).toBe(false)
		expect(uncaught.output).toBe('before\n')
		expect(uncaught.error).toBe('IgApiError: User nobody not found (kind: not_found)')
	})

	it('passes the host’s permission denial through as an error the code can read', async () => {
		const { options } = bridge(() => {
			throw new Error('Permission denied: media.like was not allowed')
		})
		const result = await runInSandbox('await ig.media.like("3842790443716764595")', options)
		expect(result.ok).toBe(false)
		expect(result.error).toContain('Permission denied: media.like was not allowed')
	})

	it('reports a host that throws a non-Error as an Error with its text', async () => {
		const { options } = bridge(() => {
			throw 'plain string failure'
		})
		const result = await runInSandbox(
			'try { await ig.users.getByUsername("x") } catch (error) { return [error instanceof Error, error.message] }',
			options
		)
		expect(result.returnValue).toEqual([true, 'plain string failure'])
	})

	it('limits calls per run; later calls throw a catchable error and never reach the host', async () => {
		const { calls, options } = bridge(() => 1)
		const code = `
			const results = []
			for (let i = 0; i < 5; i++) {
				try { results.push(await ig.users.getByUsername('u' + i)) } catch (error) { results.push(error.message) }
			}
			return results
		`
		const result = await runInSandbox(code, { ...options, maxCalls: 3 })
		expect(calls).toHaveLength(3)
		const values = result.returnValue as unknown[]
		expect(values.slice(0, 3)).toEqual([1, 1, 1])
		expect(String(values[3])).toContain('at most 3 ig/saveFile calls')
	})

	it('runs at most maxConcurrentCalls host calls at once and queues the rest', async () => {
		let active = 0
		let peak = 0
		const options: SandboxOptions = {
			methods: ['users.getByUsername'],
			callMethod: async (_path, args) => {
				active++
				peak = Math.max(peak, active)
				await new Promise((resolve) => setTimeout(resolve, 2))
				active--
				return args[0]
			},
			maxConcurrentCalls: 2
		}
		const result = await runInSandbox(
			'return await Promise.all([1, 2, 3, 4, 5, 6].map((n) => ig.users.getByUsername(n)))',
			options
		)
		expect(result.returnValue).toEqual([1, 2, 3, 4, 5, 6])
		expect(peak).toBe(2)
	})
})

describe('runInSandbox: saveFile', () => {
	it('writes strings as they are and other values as pretty JSON, returning the host’s answer', async () => {
		const saved: Array<{ name: string; content: string }> = []
		const options: SandboxOptions = {
			...bridge().options,
			saveFile: async (name, content) => {
				saved.push({ name, content })
				return { name, file: `output/${name}`, size: content.length }
			}
		}
		const result = await runInSandbox(
			'const a = await saveFile("a.csv", "x,y\\n1,2"); const b = await saveFile("b.json", { k: [1] }); return [a, b]',
			options
		)
		expect(result.ok).toBe(true)
		expect(saved).toEqual([
			{ name: 'a.csv', content: 'x,y\n1,2' },
			{ name: 'b.json', content: '{\n  "k": [\n    1\n  ]\n}' }
		])
		expect(result.returnValue).toEqual([
			{ name: 'a.csv', file: 'output/a.csv', size: 7 },
			{ name: 'b.json', file: 'output/b.json', size: 22 }
		])
	})

	it('rejects bad names and missing content in the guest; host errors are catchable', async () => {
		const options: SandboxOptions = {
			...bridge().options,
			saveFile: async () => {
				throw new Error('permission denied: file_write')
			}
		}
		const code = `
			const messages = []
			for (const attempt of [() => saveFile('', 'x'), () => saveFile('a.txt'), () => saveFile('a.txt', 'x')]) {
				try { await attempt() } catch (error) { messages.push(error.message) }
			}
			return messages
		`
		const result = await runInSandbox(code, options)
		expect(result.returnValue).toEqual([
			'saveFile(name, content): name must be a non-empty string',
			'saveFile(name, content): content must be a string or JSON data',
			'permission denied: file_write'
		])
	})

	it('does not exist when the host gives no saveFile', async () => {
		const result = await runInSandbox('return typeof saveFile', bridge().options)
		expect(result.returnValue).toBe('undefined')
	})
})

describe('runInSandbox: time and cancellation', () => {
	it('ends a run waiting on a host call at the timeout and names the call', async () => {
		const options: SandboxOptions = {
			methods: ['users.getByUsername'],
			callMethod: () => new Promise(() => {}),
			timeoutMs: 200
		}
		const result = await runInSandbox('console.log("waiting"); await ig.users.getByUsername("x")', options)
		expect(result.ok).toBe(false)
		expect(result.error).toBe('Timed out after 0.2 s while waiting for ig.users.getByUsername')
		expect(result.output).toBe('waiting\n')
	})

	it('stops at once when the signal aborts during a host call', async () => {
		const controller = new AbortController()
		const options: SandboxOptions = {
			methods: ['users.getByUsername'],
			callMethod: () => {
				queueMicrotask(() => controller.abort())
				return new Promise(() => {})
			},
			signal: controller.signal
		}
		const result = await runInSandbox('await ig.users.getByUsername("x")', options)
		expect(result).toMatchObject({ ok: false, error: 'The run was aborted' })
	})

	it('does not start when the signal is already aborted', async () => {
		const { calls, options } = bridge()
		const result = await runInSandbox('await ig.users.getByUsername("x")', {
			...options,
			signal: AbortSignal.abort()
		})
		expect(result).toMatchObject({ ok: false, error: 'The run was aborted' })
		expect(calls).toHaveLength(0)
	})

	it('refuses method paths that are not group.method', async () => {
		const result = await runInSandbox('return 1', {
			...bridge().options,
			methods: ['users.getByUsername', 'bad path']
		})
		expect(result.ok).toBe(false)
		expect(result.error).toContain('bad path')
	})
})
