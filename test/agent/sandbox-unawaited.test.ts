/**
 * Host calls the code starts without `await`: the run waits for each one (within its time limit),
 * so a `saveFile` forgotten by the model still writes its file, and a call that fails where the
 * code never looked fails the run with its error instead of being lost.
 */
import { describe, expect, it } from 'bun:test'
import { runInSandbox, type SandboxOptions } from '../../src/agent/sandbox'

/** A host whose calls take a little while; `bad` arguments and `fail.txt` fail. */
function slowHost(overrides: Partial<SandboxOptions> = {}) {
	const saved: string[] = []
	const called: string[] = []
	const options: SandboxOptions = {
		methods: ['users.getByUsername'],
		callMethod: async (_path, args) => {
			await Bun.sleep(30)
			called.push(String(args[0]))
			if (args[0] === 'bad') throw new Error('User bad not found')
			return { username: args[0] }
		},
		saveFile: async (name, content) => {
			await Bun.sleep(30)
			if (name === 'fail.txt') throw new Error('cannot write fail.txt: the disk is full')
			saved.push(name)
			return { name, file: `output/${name}`, size: content.length }
		},
		timeoutMs: 5000,
		...overrides
	}
	return { saved, called, options }
}

describe('calls the code did not await', () => {
	it('a saveFile without await is written before the run ends', async () => {
		const { saved, options } = slowHost()
		const result = await runInSandbox(`saveFile('x.txt', 'hi'); return 'saved'`, options)
		expect(saved).toEqual(['x.txt'])
		expect(result).toMatchObject({ ok: true, returnValue: 'saved' })
	})

	it('so is an ig call, and a call chained on it after the body returned', async () => {
		const { saved, called, options } = slowHost()
		const result = await runInSandbox(
			`ig.users.getByUsername('luna').then((user) => saveFile(user.username + '.json', user)); return 1`,
			options
		)
		expect(called).toEqual(['luna'])
		expect(saved).toEqual(['luna.json'])
		expect(result.ok).toBe(true)
	})

	it('one that fails fails the run, naming the call and its error; output and return value stay', async () => {
		const { options } = slowHost()
		const result = await runInSandbox(
			`console.log('before'); saveFile('fail.txt', 'x'); return 'saved'`,
			options
		)
		expect(result.ok).toBe(false)
		expect(result.error).toBe(
			'saveFile("fail.txt") was not awaited and failed: Error: cannot write fail.txt: the disk is full'
		)
		expect(result.output).toBe('before\n')
		expect(result.returnValue).toBe('saved')
	})

	it('reports a failing ig call and a refused second saveFile, after the body’s own error', async () => {
		const { options } = slowHost()
		const igCall = await runInSandbox(`ig.users.getByUsername('bad'); return 2`, options)
		expect(igCall.error).toBe('ig.users.getByUsername was not awaited and failed: Error: User bad not found')
		const both = await runInSandbox(
			`saveFile('a.txt', 'a'); saveFile('b.txt', 'b'); throw new Error('boom')`,
			options
		)
		expect(both.ok).toBe(false)
		expect(both.error).toStartWith('Error: boom')
		expect(both.error).toContain(
			'saveFile("b.txt") was not awaited and failed: Error: saveFile writes one file at a time: await each saveFile before the next'
		)
	})

	it('says nothing of a failure the code awaited, caught or handed to Promise.all', async () => {
		const { options } = slowHost()
		for (const code of [
			`try { await saveFile('fail.txt', 'x') } catch {} return 'ok'`,
			`ig.users.getByUsername('bad').catch(() => {}); return 'ok'`,
			`await Promise.allSettled([ig.users.getByUsername('bad'), saveFile('fail.txt', 'x')]); return 'ok'`,
			`const pending = ig.users.getByUsername('bad'); try { await Promise.all([pending]) } catch {} return 'ok'`
		]) {
			expect(await runInSandbox(code, options)).toMatchObject({ ok: true, returnValue: 'ok' })
		}
	})

	it('a failure passed on by then or finally, or thrown by a callback, is not lost', async () => {
		const { options } = slowHost()
		for (const code of [
			`saveFile('fail.txt', 'x').then(() => console.log('saved')); return 'done'`,
			`ig.users.getByUsername('bad').finally(() => {}); return 'done'`,
			`ig.users.getByUsername('luna').then(() => { throw new Error('boom') }); return 'done'`
		]) {
			const result = await runInSandbox(code, options)
			expect({ code, ok: result.ok }).toEqual({ code, ok: false })
			expect(result.error).toMatch(
				/^(saveFile\("fail\.txt"\)|ig\.users\.getByUsername) was not awaited and failed: Error: /
			)
			expect(result.returnValue).toBe('done')
		}
		// Handled further down the chain, or awaited there: nothing to report.
		for (const code of [
			`ig.users.getByUsername('bad').then(() => 1).catch(() => 2); return 'ok'`,
			`await ig.users.getByUsername('bad').then(() => 1).catch(() => 2); return 'ok'`
		])
			expect(await runInSandbox(code, options)).toMatchObject({ ok: true, returnValue: 'ok' })
	})

	it('a body that throws with calls still out answers its error within a moment, not at the time limit', async () => {
		const { options } = slowHost({ callMethod: () => new Promise(() => {}), timeoutMs: 20_000 })
		const started = performance.now()
		const result = await runInSandbox(
			`for (let i = 0; i < 5; i++) ig.users.getByUsername('held'); throw new Error('the real bug')`,
			options
		)
		expect(result.ok).toBe(false)
		expect(result.error).toStartWith('Error: the real bug')
		expect(performance.now() - started).toBeLessThan(10_000)
	})

	it('running out of memory in a callback after the body returned fails the run', async () => {
		const { options } = slowHost()
		const result = await runInSandbox(
			`const kept = []; ig.users.getByUsername('luna').then(() => { for (;;) kept.push('y'.repeat(100000) + kept.length) }); return 'returned'`,
			options
		)
		expect(result.ok).toBe(false)
		expect(result.error).toContain('out of memory')
	})

	it('the time limit covers the wait, and the timeout names the call left running', async () => {
		const { options } = slowHost({ saveFile: () => new Promise(() => {}), timeoutMs: 300 })
		const result = await runInSandbox(`saveFile('slow.txt', 'x'); return 1`, options)
		expect(result.ok).toBe(false)
		expect(result.error).toBe(
			'Timed out after 0.3 s while waiting for saveFile, which the code started without await'
		)
	})
})
