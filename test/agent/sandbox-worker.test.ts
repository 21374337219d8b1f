/**
 * The sandbox runs guests on worker threads: the host's event loop keeps serving while a guest
 * spins, workers that crash, hang or are terminated are replaced, concurrent runs each get their
 * own worker, and idle workers never keep the process alive.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import path from 'node:path'
import { runInSandbox, type SandboxOptions } from '../../src/agent/sandbox'
import { sandboxWorkerPool } from '../../src/agent/sandbox/default-pool'
import { WorkerPool } from '../../src/agent/sandbox/pool'
import { runOnPool } from '../../src/agent/sandbox/run'
import type { WorkerThread } from '../../src/agent/sandbox/worker-handle'

const ROOT = path.resolve(import.meta.dir, '../..')

/** A bridge whose first call tells the test that the guest is running. */
function signalledOptions(overrides: Partial<SandboxOptions> = {}) {
	let markStarted: () => void = () => {}
	const started = new Promise<void>((resolve) => {
		markStarted = resolve
	})
	const options: SandboxOptions = {
		methods: ['users.getByUsername'],
		callMethod: async (_path, args) => {
			markStarted()
			return { username: args[0] }
		},
		...overrides
	}
	return { started, options }
}

/** A worker thread from inline source (for workers that misbehave on purpose). */
function inlineWorker(source: string): WorkerThread {
	return new Worker(
		URL.createObjectURL(new Blob([source], { type: 'application/javascript' }))
	) as WorkerThread
}

/** A pool whose workers come from `create` (the real worker script when it returns undefined). */
function testPool(create: (index: number) => WorkerThread | undefined) {
	let index = 0
	const realWorker = () =>
		new Worker(new URL('../../src/agent/sandbox/worker.ts', import.meta.url)) as WorkerThread
	return new WorkerPool({
		maxWorkers: 1,
		maxIdleWorkers: 1,
		stopGraceMs: 300,
		createWorker: () => create(index++) ?? realWorker()
	})
}

describe('sandbox workers: the host stays responsive', () => {
	let server: ReturnType<typeof Bun.serve>
	beforeAll(() => {
		server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('host answered') })
	})
	afterAll(() => server.stop(true))

	it('keeps serving HTTP and firing timers while a guest spins until its timeout', async () => {
		const { started, options } = signalledOptions({ timeoutMs: 2000 })
		let runEnded = false
		const run = runInSandbox(
			'await ig.users.getByUsername("go"); console.log("spinning"); while (true) {}',
			options
		).then((result) => {
			runEnded = true
			return result
		})
		await started
		let ticksWhileRunning = 0
		const interval = setInterval(() => {
			if (!runEnded) ticksWhileRunning++
		}, 20)
		const answers: string[] = []
		for (let request = 0; request < 5; request++) {
			const body = await (await fetch(`http://127.0.0.1:${server.port}/`)).text()
			if (!runEnded) answers.push(body)
		}
		const result = await run
		clearInterval(interval)
		expect(answers).toEqual(Array(5).fill('host answered'))
		expect(ticksWhileRunning).toBeGreaterThanOrEqual(5)
		expect(result).toMatchObject({
			ok: false,
			error: 'Timed out after 2 s (the code was still running)',
			output: 'spinning\n'
		})
	})
})

describe('sandbox workers: failures are contained and replaced', () => {
	it('ends a run whose worker is terminated mid-run, and the next run gets a new worker', async () => {
		const { started, options } = signalledOptions({ timeoutMs: 10_000 })
		const run = runInSandbox('await ig.users.getByUsername("go"); while (true) {}', options)
		await started
		const before = sandboxWorkerPool.stats()
		sandboxWorkerPool.terminateAll()
		const result = await run
		expect(result.ok).toBe(false)
		expect(result.error).toBe('The sandbox failed: its worker was terminated')
		expect(sandboxWorkerPool.stats().workers).toBe(0)

		const next = await runInSandbox('return (await ig.users.getByUsername("after")).username', options)
		expect(next).toMatchObject({ ok: true, returnValue: 'after' })
		expect(sandboxWorkerPool.stats().started).toBe(before.started + 1)
	})

	it('terminates and replaces a worker that ignores the stop, after the grace period', async () => {
		const pool = testPool((index) =>
			index === 0 ? inlineWorker('self.onmessage = () => { for (;;) {} }') : undefined
		)
		const stuck = await runOnPool(pool, 'return 1', {
			methods: [],
			callMethod: async () => null,
			timeoutMs: 300
		})
		expect(stuck.ok).toBe(false)
		expect(stuck.error).toBe(
			'Timed out after 0.3 s (the code was still running); the sandbox did not stop in time, so it was restarted (output lost)'
		)
		expect(pool.stats()).toMatchObject({ workers: 0, started: 1 })
		const next = await runOnPool(pool, 'return 6 * 7', { methods: [], callMethod: async () => null })
		expect(next).toMatchObject({ ok: true, returnValue: 42 })
		expect(pool.stats()).toMatchObject({ workers: 1, started: 2 })
		pool.terminateAll()
	})

	it('reports a worker that crashes, without crashing the host', async () => {
		const pool = testPool((index) =>
			index === 0
				? inlineWorker(
						'postMessage({ type: "ready" }); self.onmessage = () => { throw new TypeError("worker blew up") }'
					)
				: undefined
		)
		const crashed = await runOnPool(pool, 'return 1', { methods: [], callMethod: async () => null })
		expect(crashed.ok).toBe(false)
		expect(crashed.error).toBe('The sandbox failed: its worker failed (TypeError: worker blew up)')
		const next = await runOnPool(pool, 'return "fine"', { methods: [], callMethod: async () => null })
		expect(next).toMatchObject({ ok: true, returnValue: 'fine' })
		pool.terminateAll()
	})

	it('reports a worker script that cannot load', async () => {
		const pool = new WorkerPool({
			maxWorkers: 1,
			maxIdleWorkers: 1,
			stopGraceMs: 300,
			createWorker: () => new Worker(path.join(ROOT, 'src/agent/sandbox/missing-worker.ts')) as WorkerThread
		})
		const result = await runOnPool(pool, 'return 1', { methods: [], callMethod: async () => null })
		expect(result.ok).toBe(false)
		expect(result.error).toStartWith('The sandbox failed: its worker could not load (')
		expect(result.error).toContain('missing-worker.ts')
		await expect(pool.warmUp(16 * 1024 * 1024)).rejects.toThrow('The sandbox could not start')
		pool.terminateAll()
	})
})

describe('sandbox workers: concurrency and process exit', () => {
	it('completes concurrent runs correctly, more than there are workers', async () => {
		const runs = Array.from({ length: 6 }, (_, index) =>
			runInSandbox(
				`globalThis.mine = ${index}; const user = await ig.users.getByUsername("user${index}"); let total = 0; for (let i = 0; i < 20000; i++) total += i % 7; return [user.username, globalThis.mine, total]`,
				signalledOptions({ timeoutMs: 20_000 }).options
			)
		)
		const results = await Promise.all(runs)
		let expectedTotal = 0
		for (let i = 0; i < 20000; i++) expectedTotal += i % 7
		results.forEach((result, index) => {
			expect(result).toMatchObject({ ok: true, returnValue: [`user${index}`, index, expectedTotal] })
		})
		expect(sandboxWorkerPool.stats()).toMatchObject({ busy: 0, waiting: 0 })
		expect(sandboxWorkerPool.stats().workers).toBeLessThanOrEqual(2)
	})

	it('counts the wait for a free worker against the deadline, and lets an abort end the wait', async () => {
		const pool = testPool(() => undefined)
		const { started, options } = signalledOptions({ timeoutMs: 1500 })
		const busy = runOnPool(pool, 'await ig.users.getByUsername("go"); while (true) {}', options)
		await started
		const waiting = await runOnPool(pool, 'return 1', {
			methods: [],
			callMethod: async () => null,
			timeoutMs: 200
		})
		expect(waiting).toMatchObject({
			ok: false,
			error:
				'Timed out after 0.2 s waiting for a free sandbox (every sandbox worker was busy with other runs)'
		})
		const controller = new AbortController()
		const aborted = runOnPool(pool, 'return 1', {
			methods: [],
			callMethod: async () => null,
			signal: controller.signal
		})
		controller.abort()
		expect(await aborted).toMatchObject({ ok: false, error: 'The run was aborted' })
		expect(pool.stats().waiting).toBe(0)
		expect((await busy).error).toBe('Timed out after 1.5 s (the code was still running)')
		expect(await runOnPool(pool, 'return 2', { methods: [], callMethod: async () => null })).toMatchObject({
			ok: true,
			returnValue: 2
		})
		expect(pool.stats().started).toBe(1)
		pool.terminateAll()
	})

	it('reuses one warm worker for runs one after another', async () => {
		const options = signalledOptions().options
		await runInSandbox('return 1', options)
		const before = sandboxWorkerPool.stats().started
		for (let run = 0; run < 5; run++)
			expect((await runInSandbox(`return ${run}`, options)).returnValue).toBe(run)
		expect(sandboxWorkerPool.stats().started).toBe(before)
	})

	it('lets the process exit on its own after runs and a warm-up (idle workers are unref’d)', async () => {
		const script = `
			import { runInSandbox, warmUpSandbox } from ${JSON.stringify(path.join(ROOT, 'src/agent/sandbox.ts'))}
			await warmUpSandbox(64 * 1024 * 1024)
			const result = await runInSandbox('return 40 + 2', { methods: [], callMethod: async () => null })
			console.log(JSON.stringify(result.returnValue))
		`
		const child = Bun.spawn([path.join(ROOT, 'node_modules/.bin/bun'), '-e', script], {
			cwd: ROOT,
			stdout: 'pipe',
			stderr: 'pipe'
		})
		// Only a process that never exits reaches this kill; it then fails on the exit code.
		const killer = setTimeout(() => child.kill(), 15_000)
		const [stdout, code] = await Promise.all([new Response(child.stdout).text(), child.exited])
		clearTimeout(killer)
		expect(stdout.trim()).toBe('42')
		expect(code).toBe(0)
		expect(child.signalCode).toBeNull()
	}, 30_000)
})
