/**
 * `smkit collect` (the compiled binary) over an upstream that gives a page's own cursor as the next
 * one on every ask: the job asks for that page again a few times, then fails with exit 1 and says
 * what happened and what to do, never `done` with exit 0 on part of the list. Run again once the
 * upstream behaves, it continues and writes the whole list, each follower once.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { encodeCursor } from '../../src/simulator/cursor'
import { MEGA_FOLLOWER_COUNT } from '../../src/simulator/dataset-mega'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { compiledBinary } from '../support/binary'

let binary: string
let simulator: Simulator
let folder: string

beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-collect-faults-'))
})
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

async function collect(args: string[]) {
	const child = Bun.spawn([binary, 'collect', ...args, '--demo'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' },
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const [code, stderr] = await Promise.all([child.exited, new Response(child.stderr).text()])
	return { code, stderr }
}

test('a cursor given again on every ask: failed, exit 1, with the message; run again, the whole list', async () => {
	const mega = DEMO_PRESETS.mega
	simulator.faults.set({
		kind: 'repeat_cursor',
		pathPattern: `/followers/\\?.*max_id=${encodeCursor(`followers-${mega.pk}`, 2000)}(&|$)`
	})
	const args = ['followers', mega.username, '--out', 'followers.jsonl', '--db', 'faults.db']
	const failed = await collect(args)
	expect(failed.code).toBe(1)
	expect(failed.stderr).toContain('failed: 2,200 records')
	expect(failed.stderr).toContain(
		'Instagram gave the same cursor again after 2,200 records: the list stopped early; run again to continue'
	)
	expect(failed.stderr).not.toContain('done:')

	simulator.faults.clear()
	const done = await collect(args)
	expect(done.code).toBe(0)
	expect(done.stderr).toContain(`done: ${MEGA_FOLLOWER_COUNT.toLocaleString('en-US')} records`)
	const pks = readFileSync(join(folder, 'followers.jsonl'), 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => (JSON.parse(line) as { pk: string }).pk)
	expect(pks.length).toBe(MEGA_FOLLOWER_COUNT)
	expect(new Set(pks).size).toBe(MEGA_FOLLOWER_COUNT)
}, 120_000)
