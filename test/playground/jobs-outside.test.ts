/**
 * Jobs of `smkit collect` and the MCP server on the playground's store: listed beside its own with
 * their `source`, followed through the store while their process runs them, downloadable, deleted
 * only once no live process runs them, and never paused, resumed or cancelled from here (the
 * refusal says how their own process does it). A job whose process died shows as paused.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { JobManager } from '../../src/jobs/manager'
import { JobStore } from '../../src/jobs/store'
import { openStore } from '../../src/store/db'
import { expectFailure, expectOk, usePlayground } from './support'

const store = openStore(':memory:')
const jobs = new JobStore(store)
const playground = usePlayground({
	deps: { jobs: new JobManager({ jobs, ig: {} as never, shows: ['cli', 'mcp'] }) }
})

// A live process other than this one, standing in for a terminal running `smkit collect`.
const other = Bun.spawn(['sleep', '60'])
afterAll(() => other.kill())

const setRunner = (id: number, pid: number | null) =>
	store.db.query('UPDATE jobs SET runner_pid = ?, status = ? WHERE id = ?').run(pid, 'running', id)

const records = (from: number, count: number) =>
	Array.from({ length: count }, (_, index) => ({
		key: String(from + index),
		data: { pk: String(from + index) }
	}))

describe('jobs of other processes in the playground', () => {
	it('are listed with their source, and a running one is followed through the store', async () => {
		const cli = jobs.create({ kind: 'followers', target: 'mega.travel', limit: null }, 'cli')
		setRunner(cli.id, other.pid)
		jobs.create({ kind: 'tag', target: 'sunset', limit: 50 }, 'watch')
		const list = await expectOk(await playground.get('/api/jobs'))
		expect(list.data.map((job: { id: number; source: string }) => [job.id, job.source])).toEqual([
			[cli.id, 'cli']
		])
		expect(list.data[0].status).toBe('running')

		// Straight to the app: the harness's request reads a body whole before it answers.
		const response = await playground.app.handle(new Request(`http://127.0.0.1/api/jobs/${cli.id}/events`))
		const reading = response.text()
		await Bun.sleep(300)
		jobs.storePage(cli.id, records(1, 200), 'c1')
		await Bun.sleep(1300)
		jobs.storePage(cli.id, records(201, 50), null)
		jobs.setStatus(cli.id, 'done')
		const events = (await reading)
			.split('\n\n')
			.filter((block) => block.startsWith('data: '))
			.map((block) => JSON.parse(block.slice(6)))
		expect(events[0]).toMatchObject({ type: 'status', job: { status: 'running', collected: 0 } })
		const pages = events.filter((event) => event.type === 'page')
		expect(pages.length).toBeGreaterThanOrEqual(1)
		expect(pages.every((event) => event.job.source === 'cli')).toBe(true)
		expect(events.at(-1)).toMatchObject({ type: 'status', job: { status: 'done', collected: 250, pages: 2 } })

		const exported = await playground.get(`/api/jobs/${cli.id}/export?format=jsonl`)
		expect((await exported.text()).trim().split('\n')).toHaveLength(250)
	})

	it('are not paused, resumed or cancelled here; the refusal says how their process does it', async () => {
		const cli = jobs.create({ kind: 'followers', target: 'luna.explorer', limit: 100 }, 'cli')
		setRunner(cli.id, other.pid)
		for (const action of ['pause', 'cancel'] as const) {
			const failure = await expectFailure(
				await playground.request('POST', `/api/jobs/${cli.id}/${action}`),
				400,
				'bad_request'
			)
			expect(failure.error).toContain(`Job ${cli.id} was started by smkit collect`)
			expect(failure.error).toContain('`smkit collect followers luna.explorer --limit 100` again')
		}
		const stillRunning = await expectOk(await playground.get(`/api/jobs/${cli.id}`))
		expect(stillRunning.data.status).toBe('running')
		const refused = await expectFailure(
			await playground.request('DELETE', `/api/jobs/${cli.id}`),
			400,
			'bad_request'
		)
		expect(refused.error).toContain(`is being collected by smkit collect (process ${other.pid})`)
		expect(jobs.get(cli.id)).toBeDefined()
	})

	it('a finished one is said to be finished, not to be continued in its terminal', async () => {
		const cli = jobs.create({ kind: 'followers', target: 'luna.explorer', limit: 5 }, 'cli')
		jobs.setStatus(cli.id, 'done')
		const said = {
			resume: `Job ${cli.id} is done; only a paused, failed or cancelled job can be resumed`,
			pause: `Job ${cli.id} is done; it cannot be paused`,
			cancel: `Job ${cli.id} is done; it cannot be cancelled`
		}
		for (const action of ['resume', 'pause', 'cancel'] as const) {
			const failure = await expectFailure(
				await playground.request('POST', `/api/jobs/${cli.id}/${action}`),
				400,
				'bad_request'
			)
			expect(failure.error).toBe(said[action])
		}
	})

	it('show a job whose process died as paused, and delete it', async () => {
		const dead = Bun.spawn(['true'])
		await dead.exited
		const cli = jobs.create({ kind: 'following', target: "it's.me", limit: null }, 'cli')
		setRunner(cli.id, dead.pid)
		jobs.storePage(cli.id, records(1, 10), 'c1')
		const shown = await expectOk(await playground.get(`/api/jobs/${cli.id}`))
		expect(shown.data).toMatchObject({ source: 'cli', status: 'paused', collected: 10 })
		expect(shown.data.error).toBe(
			"Stopped when smkit collect ended: run `smkit collect following 'it'\\''s.me'` again (same --db) to continue it"
		)
		const resumed = await expectFailure(
			await playground.request('POST', `/api/jobs/${cli.id}/resume`),
			400,
			'bad_request'
		)
		expect(resumed.error).toContain('cannot be resumed here')
		// The store itself is left as the other process wrote it.
		expect(jobs.get(cli.id)?.status).toBe('running')

		// A server holds the jobs it has queued: one held by a live MCP server waits for a slot there;
		// one its MCP server left queued when it died has nobody to run it.
		const mcp = jobs.create({ kind: 'likers', target: '123', limit: null }, 'mcp')
		store.db.query('UPDATE jobs SET runner_pid = ? WHERE id = ?').run(other.pid, mcp.id)
		expect((await expectOk(await playground.get(`/api/jobs/${mcp.id}`))).data).toMatchObject({
			source: 'mcp',
			status: 'queued'
		})
		store.db.query('UPDATE jobs SET runner_pid = ? WHERE id = ?').run(dead.pid, mcp.id)
		const left = await expectOk(await playground.get(`/api/jobs/${mcp.id}`))
		expect(left.data).toMatchObject({ source: 'mcp', status: 'paused' })
		expect(left.data.error).toBe(
			'Stopped when the MCP server ended: it continues when the MCP server starts again on this store'
		)

		await expectOk(await playground.request('DELETE', `/api/jobs/${cli.id}`))
		expect(jobs.get(cli.id)).toBeUndefined()
		await expectFailure(await playground.get(`/api/jobs/${cli.id}`), 404, 'not_found')
	})
})
