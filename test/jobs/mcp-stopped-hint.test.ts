/**
 * A job whose MCP server was killed, seen by another MCP server on the same store (jobs_status):
 * it shows as paused saying how an MCP server continues it, jobs_start with the same kind, target
 * and limit (MCP has no resume tool), and doing so continues that very job. A playground's own job
 * left the same way names its Resume button and API.
 */
import { expect, test } from 'bun:test'
import { followerSpec, usePlaygrounds, within } from './playgrounds'

const { manager, otherProcess, gate } = usePlaygrounds('smkit-mcp-stopped-')

/** A job started by a manager of `owner` for a live process that is then killed (kill -9). */
async function leftByKilled(owner: string, limit: number | null) {
	const held = gate()
	const other = otherProcess()
	const killed = manager({
		pid: other.pid,
		owner,
		beforePage: async () => {
			held.reached()
			await held.opened
		}
	})
	const job = killed.start({ ...followerSpec, limit })
	await within(held.wasReached, 'the first page')
	other.kill(9)
	await other.exited
	return job
}

test("a killed MCP server's job, seen by another MCP server, says to call jobs_start; that continues it", async () => {
	const job = await leftByKilled('mcp', 120)
	const viewer = manager({ owner: 'mcp' })
	expect(viewer.get(job.id)).toMatchObject({
		status: 'paused',
		error:
			'Stopped when the MCP server ended: call jobs_start with the same kind, target and limit (kind followers, target "luna.explorer", limit 120) to continue it from its last stored page'
	})
	expect(viewer.get(job.id)?.error).not.toContain('resume it')

	const continued = viewer.startOrContinue({ ...followerSpec, limit: 120 })
	expect(continued.id).toBe(job.id)
	expect(await within(viewer.settled(job.id), 'the continued job')).toMatchObject({
		status: 'done',
		collected: 120
	})
})

test("a killed playground's job, seen by another playground, names its Resume button and API", async () => {
	const job = await leftByKilled('playground', null)
	expect(manager().get(job.id)?.error).toBe(
		`Stopped when the playground ended: resume it (Resume in the Jobs panel, or POST /api/jobs/${job.id}/resume) to continue from its last stored page`
	)
})
