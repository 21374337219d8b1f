/**
 * Hostile programs against the sandbox. Each one must be contained: a clear error or a harmless
 * result, never a crash, hang or leak into the host; after each, a normal run must still answer
 * correctly. Timeouts are short so no test waits long.
 */
import { describe, expect, it } from 'bun:test'
import { runInSandbox, type SandboxOptions, type SandboxResult } from '../../src/agent/sandbox'

const SHORT_TIMEOUT_MS = 400
const originalInstantiate = WebAssembly.instantiate

function hostOptions(overrides: Partial<SandboxOptions> = {}) {
	const calls: unknown[][] = []
	const options: SandboxOptions = {
		methods: ['users.getByUsername', 'media.like'],
		callMethod: async (_path, args) => {
			calls.push(args)
			return { pk: '1000000002', username: args[0] }
		},
		timeoutMs: SHORT_TIMEOUT_MS,
		...overrides
	}
	return { calls, options }
}

/** After a hostile run: a normal run, bridge included, still answers correctly, and the host is untouched. */
async function expectHealthy(): Promise<void> {
	const { calls, options } = hostOptions({ timeoutMs: 5000 })
	const result = await runInSandbox(
		'const user = await ig.users.getByUsername("luna.explorer"); console.log(user.username); return 6 * 7',
		options
	)
	expect(result).toMatchObject({ ok: true, returnValue: 42, output: 'luna.explorer\n' })
	expect(calls).toEqual([['luna.explorer']])
	expect(({} as Record<string, unknown>).polluted).toBeUndefined()
	expect(WebAssembly.instantiate).toBe(originalInstantiate)
}

async function hostile(code: string, overrides: Partial<SandboxOptions> = {}): Promise<SandboxResult> {
	const result = await runInSandbox(code, hostOptions(overrides).options)
	expect(typeof result.ok).toBe('boolean')
	return result
}

describe('sandbox containment: no host capabilities', () => {
	it('has no process, require, Bun, fetch or WebAssembly', async () => {
		const result = await hostile(
			'return [typeof process, typeof require, typeof Bun, typeof fetch, typeof WebAssembly, typeof module, typeof Deno]'
		)
		expect(result.returnValue).toEqual(Array(7).fill('undefined'))
		for (const code of [
			'process.exit(1)',
			'require("fs")',
			'Bun.file("/etc/passwd")',
			'await fetch("http://127.0.0.1/")'
		]) {
			const failed = await hostile(code)
			expect(failed.ok).toBe(false)
			expect(failed.error).toContain('ReferenceError')
			expect(failed.error).toContain('is not defined')
		}
		await expectHealthy()
	})

	it('cannot import modules, by name or URL', async () => {
		const byName = await hostile(
			'const fs = await import("fs"); return fs.readFileSync("/etc/passwd", "utf8")'
		)
		expect(byName.ok).toBe(false)
		expect(byName.error).toContain("could not load module 'fs'")
		const byUrl = await hostile('return await import("http://127.0.0.1:1/evil.js")')
		expect(byUrl.ok).toBe(false)
		expect(byUrl.error).toContain('could not load module')
		const staticImport = await hostile('import fs from "fs"')
		expect(staticImport.ok).toBe(false)
		expect(staticImport.error).toContain('SyntaxError')
		await expectHealthy()
	})

	it('lists only the standard globals plus ig, console and saveFile', async () => {
		const result = await hostile('return Object.getOwnPropertyNames(globalThis).sort()', {
			saveFile: async (name, content) => ({ name, file: name, size: content.length })
		})
		const standard = [
			'AggregateError',
			'Array',
			'ArrayBuffer',
			'BigInt',
			'BigInt64Array',
			'BigUint64Array',
			'Boolean',
			'DataView',
			'Date',
			'Error',
			'EvalError',
			'FinalizationRegistry',
			'Float16Array',
			'Float32Array',
			'Float64Array',
			'Function',
			'Infinity',
			'Int16Array',
			'Int32Array',
			'Int8Array',
			'InternalError',
			'Iterator',
			'JSON',
			'Map',
			'Math',
			'NaN',
			'Number',
			'Object',
			'Promise',
			'Proxy',
			'RangeError',
			'ReferenceError',
			'Reflect',
			'RegExp',
			'Set',
			'SharedArrayBuffer',
			'String',
			'Symbol',
			'SyntaxError',
			'TypeError',
			'URIError',
			'Uint16Array',
			'Uint32Array',
			'Uint8Array',
			'Uint8ClampedArray',
			'WeakMap',
			'WeakRef',
			'WeakSet',
			'decodeURI',
			'decodeURIComponent',
			'encodeURI',
			'encodeURIComponent',
			'escape',
			'eval',
			'globalThis',
			'isFinite',
			'isNaN',
			'parseFloat',
			'parseInt',
			'undefined',
			'unescape'
		]
		expect(result.returnValue).toEqual([...standard, 'console', 'ig', 'saveFile'].sort())
		await expectHealthy()
	})

	it('has no timers: setTimeout and friends do not exist', async () => {
		const result = await hostile(
			'return [typeof setTimeout, typeof setInterval, typeof setImmediate, typeof queueMicrotask, typeof clearTimeout]'
		)
		expect(result.returnValue).toEqual(Array(5).fill('undefined'))
		const called = await hostile('await new Promise((resolve) => setTimeout(resolve, 10))')
		expect(called.error).toContain("'setTimeout' is not defined")
		await expectHealthy()
	})

	it('reaches only the guest global through Function constructor escapes', async () => {
		const code = `
			const viaFunction = Function('return this')()
			const viaConstructor = (() => {}).constructor.constructor('return this')()
			const viaAsync = await (async () => {}).constructor('return typeof process')()
			return [viaFunction === globalThis, viaConstructor === globalThis, typeof viaFunction.process, viaAsync]
		`
		expect((await hostile(code)).returnValue).toEqual([true, true, 'undefined', 'undefined'])
		await expectHealthy()
	})

	it('evaluates eval in the guest only', async () => {
		const result = await hostile(
			'return [eval("1 + 1"), eval("typeof process"), (0, eval)("typeof require")]'
		)
		expect(result.returnValue).toEqual([2, 'undefined', 'undefined'])
		await expectHealthy()
	})

	it('offers nothing through bridge functions’ prototypes and constructors', async () => {
		const code = `
			const method = ig.users.getByUsername
			const out = {
				frozen: Object.isFrozen(ig) && Object.isFrozen(ig.users) && Object.isFrozen(method),
				igProto: Object.getPrototypeOf(ig),
				groupProto: Object.getPrototypeOf(ig.users),
				constructorResult: await method.constructor('return typeof process')(),
				hasPrototype: 'prototype' in method
			}
			try { method.caller; out.caller = 'readable' } catch (error) { out.caller = 'blocked' }
			try { Object.defineProperty(method, 'x', { value: 1 }); out.define = 'allowed' } catch (error) { out.define = 'blocked' }
			try { ig.users.getByUsername = () => 'fake' } catch (error) {}
			out.replaced = ig.users.getByUsername === method
			return out
		`
		expect((await hostile(code)).returnValue).toEqual({
			frozen: true,
			igProto: null,
			groupProto: null,
			constructorResult: 'undefined',
			hasPrototype: false,
			caller: 'blocked',
			define: 'blocked',
			replaced: true
		})
		await expectHealthy()
	})

	it('keeps prototype pollution inside the run: the next run and the host are clean', async () => {
		const polluted = await hostile(`
			Object.prototype.polluted = 'yes'
			;({}).__proto__.alsoPolluted = 'yes'
			Array.prototype.map = () => 'hijacked'
			JSON.parse = () => ({ hijacked: true })
			return ({}).polluted
		`)
		expect(polluted.returnValue).toBe('yes')
		const next = await hostile('return [({}).polluted, ({}).alsoPolluted, [1].map((x) => x + 1)]')
		expect(next.returnValue).toEqual([null, null, [2]])
		await expectHealthy()
	})

	it('gives each run a fresh ig: changes to ig, console and globals do not carry over', async () => {
		const changed = await hostile(`
			try { delete ig.users } catch (error) {}
			try { globalThis.ig = null } catch (error) {}
			globalThis.leftover = 'from the last run'
			console.log = () => {}
			return typeof ig.users
		`)
		expect(changed.returnValue).toBe('object')
		const next = await hostile(
			'console.log("visible"); return [typeof globalThis.leftover, typeof ig.users.getByUsername]'
		)
		expect(next.returnValue).toEqual(['undefined', 'function'])
		expect(next.output).toBe('visible\n')
		await expectHealthy()
	})

	it('has no Atomics, so SharedArrayBuffer cannot block the host', async () => {
		const result = await hostile(
			'const shared = new Int32Array(new SharedArrayBuffer(16)); return [typeof Atomics, shared.length]'
		)
		expect(result.returnValue).toEqual(['undefined', 4])
		const wait = await hostile('Atomics.wait(new Int32Array(new SharedArrayBuffer(16)), 0, 0)')
		expect(wait.error).toContain("'Atomics' is not defined")
		await expectHealthy()
	})
})

describe('sandbox containment: CPU, memory, stack, output', () => {
	it('interrupts an infinite loop at the deadline', async () => {
		const result = await hostile('console.log("started"); while (true) {}')
		expect(result.ok).toBe(false)
		expect(result.error).toBe('Timed out after 0.4 s (the code was still running)')
		expect(result.output).toBe('started\n')
		await expectHealthy()
	})

	it('interrupts an infinite loop inside an awaited promise chain', async () => {
		const result = await hostile(`
			await ig.users.getByUsername('a')
			await Promise.resolve().then(async () => { await null; for (;;) {} })
		`)
		expect(result.error).toContain('Timed out after 0.4 s')
		await expectHealthy()
	})

	it('interrupts an endless microtask chain without starving the host', async () => {
		const result = await hostile('for (;;) await null')
		expect(result.error).toContain('Timed out after 0.4 s')
		const recursive = await hostile(
			'const spin = () => Promise.resolve().then(spin); spin(); await new Promise(() => {})'
		)
		expect(recursive.ok).toBe(false)
		expect(recursive.error).toContain('Timed out after 0.4 s')
		await expectHealthy()
	})

	it('stops array growth at the memory limit', async () => {
		const result = await hostile('const hoard = []; for (;;) hoard.push(new Array(100000).fill(7))', {
			timeoutMs: 10_000
		})
		expect(result.ok).toBe(false)
		expect(result.error).toMatch(/out of memory|The code threw null/)
		await expectHealthy()
	})

	it('stops string doubling', async () => {
		const result = await hostile('let text = "x"; for (;;) text += text', { timeoutMs: 10_000 })
		expect(result.ok).toBe(false)
		expect(result.error).toMatch(/string too long|out of memory/)
		const many = await hostile(
			'const parts = []; for (let i = 0; ; i++) parts.push("y".repeat(1 << 20) + i)',
			{
				timeoutMs: 10_000
			}
		)
		expect(many.ok).toBe(false)
		expect(many.error).toMatch(/out of memory|The code threw null/)
		await expectHealthy()
	})

	it('enforces a smaller memoryLimitBytes', async () => {
		const result = await hostile('return new Uint8Array(24 * 1024 * 1024).length', {
			memoryLimitBytes: 16 * 1024 * 1024
		})
		expect(result.ok).toBe(false)
		expect(result.error).toContain('out of memory (the sandbox allows 16 MiB of memory)')
		await expectHealthy()
	})

	it('turns deep recursion into a catchable stack overflow', async () => {
		const caught = await hostile(
			'const dive = (n) => dive(n + 1) + 1; try { dive(0) } catch (error) { return error.message }'
		)
		expect(caught.returnValue).toBe('stack overflow')
		const uncaught = await hostile('function dive() { return dive() } dive()')
		expect(uncaught.error).toContain("stack overflow (calls nest too deeply for the sandbox's stack)")
		await expectHealthy()
	})

	it('survives source nested too deeply for the host’s native stack', async () => {
		for (const code of [
			'return eval("(".repeat(100000) + "1" + ")".repeat(100000))',
			'return eval("[".repeat(100000) + "]".repeat(100000))',
			`return ${'['.repeat(50000)}${']'.repeat(50000)}`,
			'return JSON.parse("[".repeat(200000) + "]".repeat(200000))'
		]) {
			const result = await hostile(code)
			expect(result.ok).toBe(false)
			expect(result.error).toMatch(/stack overflow|Stack overflow/)
		}
		await expectHealthy()
	})

	it('caps huge output', async () => {
		const result = await hostile(
			'for (let i = 0; i < 1e5; i++) console.log("spam ".repeat(50)); return "finished"',
			{
				maxOutputChars: 1000,
				timeoutMs: 10_000
			}
		)
		expect(result.returnValue).toBe('finished')
		expect(result.outputTruncated).toBe(true)
		expect(result.output.length).toBe(1000)
		await expectHealthy()
	})

	it('accepts very long code', async () => {
		const code = `let total = 0\n${'total += 1\n'.repeat(100_000)}return total`
		const result = await hostile(code, { timeoutMs: 10_000 })
		expect(result).toMatchObject({ ok: true, returnValue: 100_000 })
		await expectHealthy()
	})

	it('reports a syntax error without running anything', async () => {
		const { calls, options } = hostOptions()
		const result = await runInSandbox('await ig.users.getByUsername("x"); })); (async () => {', options)
		expect(result.ok).toBe(false)
		expect(result.error).toContain('SyntaxError')
		expect(calls).toHaveLength(0)
		await expectHealthy()
	})
})

describe('sandbox containment: waiting, floods, odd values', () => {
	it('stops a body that awaits a promise that can never settle', async () => {
		const result = await hostile('console.log("before"); await new Promise(() => {}); console.log("after")')
		expect(result.ok).toBe(false)
		expect(result.error).toContain('waiting for a promise that can never settle')
		expect(result.output).toBe('before\n')
		await expectHealthy()
	})

	it('ends at the deadline when a bridge call never resolves', async () => {
		const result = await hostile('await ig.users.getByUsername("slow")', {
			callMethod: () => new Promise(() => {})
		})
		expect(result.error).toBe('Timed out after 0.4 s while waiting for ig.users.getByUsername')
		await expectHealthy()
	})

	it('contains a flood of 10,000 client calls', async () => {
		const { calls, options } = hostOptions({ timeoutMs: 20_000 })
		const result = await runInSandbox(
			'await Promise.all(Array.from({ length: 10000 }, (_, i) => ig.users.getByUsername("user" + i)))',
			options
		)
		expect(result.ok).toBe(false)
		expect(result.error).toContain('Too many calls: a run may make at most 200 ig/saveFile calls')
		expect(calls.length).toBeLessThanOrEqual(200)
		await expectHealthy()
	})

	it('reports thrown non-errors clearly', async () => {
		const cases: Array<[string, string]> = [
			['throw 42', 'The code threw 42 (a number, not an Error)'],
			['throw null', 'The code threw null (not an Error)'],
			['throw undefined', 'The code threw undefined (not an Error)'],
			['throw { a: 1 }', 'The code threw {"a":1} (an object, not an Error)'],
			['throw Symbol("odd")', 'The code threw Symbol(odd) (a symbol, not an Error)'],
			['throw "text"', 'The code threw text (a string, not an Error)']
		]
		for (const [code, error] of cases) expect((await hostile(code)).error).toBe(error)
		await expectHealthy()
	})

	it('still reports errors after the code sabotages JSON, String and Error', async () => {
		const result = await hostile(`
			const error = new Error('still reported')
			JSON.stringify = () => { throw new Error('sabotaged') }
			String = null
			Object.defineProperty(Error.prototype, 'name', { get() { throw new Error('no name') } })
			throw error
		`)
		expect(result.ok).toBe(false)
		expect(result.error).toContain('still reported')
		const getter = await hostile(
			'const e = new Error("x"); Object.defineProperty(e, "message", { get() { throw 1 } }); throw e'
		)
		expect(getter.ok).toBe(false)
		expect(getter.error).toContain('Error')
		await expectHealthy()
	})

	it('contains Proxy tricks on returned data and on bridge arguments', async () => {
		const throwing = await hostile(
			'return new Proxy({}, { ownKeys() { throw new Error("trap") }, get(target, key) { if (key !== "then") throw new Error("trap") } })'
		)
		expect(throwing).toMatchObject({ ok: true, returnValue: '[value that JSON cannot hold]' })
		// Returning a value whose `then` getter throws rejects the body, as in any JavaScript engine.
		const thenTrap = await hostile('return new Proxy({}, { get() { throw new Error("then trap") } })')
		expect(thenTrap.ok).toBe(false)
		expect(thenTrap.error).toContain('Error: then trap')
		const looping = await hostile('return new Proxy({}, { ownKeys() { for (;;) {} } })')
		expect(looping.error).toContain('Timed out after 0.4 s')
		const { calls, options } = hostOptions()
		const argument = await runInSandbox(
			'return (await ig.users.getByUsername(new Proxy({}, { ownKeys: () => ["a"], getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }), get: () => "from proxy" }))).username',
			options
		)
		expect(argument.returnValue).toEqual({ a: 'from proxy' })
		expect(calls).toEqual([[{ a: 'from proxy' }]])
		await expectHealthy()
	})

	it('describes a cyclic return value instead of failing', async () => {
		const result = await hostile(
			'const node = { id: 1, children: [] }; node.children.push(node); node.parent = node; return node'
		)
		expect(result.returnValue).toEqual({ id: 1, children: ['[Circular]'], parent: '[Circular]' })
		await expectHealthy()
	})

	it('stops on an aborted signal even while the guest loops', async () => {
		const controller = new AbortController()
		const result = await hostile('await ig.users.getByUsername("x"); for (;;) {}', {
			timeoutMs: 10_000,
			signal: controller.signal,
			callMethod: async () => {
				controller.abort()
				return null
			}
		})
		expect(result).toMatchObject({ ok: false, error: 'The run was aborted' })
		await expectHealthy()
	})

	it('keeps concurrent runs apart', async () => {
		const [writer, reader] = await Promise.all([
			hostile(
				'globalThis.shared = "secret"; Object.prototype.leak = 1; await ig.users.getByUsername("a"); return globalThis.shared'
			),
			hostile('await ig.users.getByUsername("b"); return [typeof globalThis.shared, ({}).leak]')
		])
		expect(writer.returnValue).toBe('secret')
		expect(reader.returnValue).toEqual(['undefined', null])
		await expectHealthy()
	})
})

describe('sandbox containment: resources over many runs', () => {
	it('does not grow host memory without bound over 50 runs', async () => {
		const measure = () => {
			Bun.gc(true)
			return process.memoryUsage().rss
		}
		const options = hostOptions({ timeoutMs: 10_000 }).options
		for (let run = 0; run < 5; run++) await runInSandbox('return new Array(100000).fill(run).length', options)
		const before = measure()
		for (let run = 0; run < 50; run++) {
			const code =
				run % 10 === 9
					? 'const hoard = []; for (;;) hoard.push(new Array(100000).fill(1))'
					: `const rows = Array.from({ length: 50000 }, (_, i) => ({ i, name: "row" + i })); console.log(rows.length); return rows.length + ${run}`
			const result = await runInSandbox(code, options)
			expect(result.ok).toBe(run % 10 !== 9)
		}
		const grownBytes = measure() - before
		expect(grownBytes).toBeLessThan(300 * 1024 * 1024)
		await expectHealthy()
	})
})
