import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
	parsePlaygroundOptions,
	type RunningPlayground,
	startPlaygroundServer
} from '../../src/playground/serve'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { envelopeProblem } from './support'

// 200 concurrent clients for 10 seconds against the demo playground, served as `smkit playground
// --demo` serves it (issue "Benchmarks and robustness", test 4): not one request may fail.
const CLIENTS = 200
const DURATION_MS = 10_000

let running: RunningPlayground
let savedDir: string
beforeAll(async () => {
	savedDir = await mkdtemp(path.join(tmpdir(), 'smkit-concurrency-'))
	const options = parsePlaygroundOptions({
		port: 0,
		host: '127.0.0.1',
		demo: true,
		env: path.join(savedDir, 'no.env'),
		savedDir,
		db: path.join(savedDir, 'smkit.db')
	})
	running = await startPlaygroundServer(options, {}, () => {})
})
afterAll(async () => {
	await running.stop()
	await rm(savedDir, { recursive: true, force: true })
})

/** What the clients ask for: profiles, a followers page, media, feeds, search, the system endpoints. */
const paths = [
	`api/users/username/${DEMO_PRESETS.luna.username}`,
	`api/friendships/followers/${DEMO_PRESETS.luna.pk}?count=50`,
	`api/media/info/${DEMO_PRESETS.media[1].pk}`,
	`api/feed/user/${DEMO_PRESETS.luna.pk}`,
	`api/users/search?q=${DEMO_PRESETS.userQuery}`,
	`api/hashtags/info/${DEMO_PRESETS.hashtags[0]}`,
	'api/status',
	'api/history'
]

describe('200 concurrent clients', () => {
	test(`${CLIENTS} clients for ${DURATION_MS / 1000} s: zero failed requests`, async () => {
		const failures: string[] = []
		let completed = 0
		const deadline = Date.now() + DURATION_MS
		const client = async (index: number) => {
			for (let turn = index; Date.now() < deadline; turn++) {
				const target = running.url + paths[turn % paths.length]
				try {
					const response = await fetch(target)
					const text = await response.text()
					const problem =
						response.status === 200
							? envelopeProblem(response.status, text)
							: `status ${response.status}: ${text.slice(0, 200)}`
					if (problem) failures.push(`${target}: ${problem}`)
				} catch (error) {
					failures.push(`${target}: ${String(error)}`)
				}
				completed++
			}
		}
		await Promise.all(Array.from({ length: CLIENTS }, (_, index) => client(index)))
		console.log(
			`${CLIENTS} clients, ${DURATION_MS / 1000} s: ${completed} requests, ${failures.length} failed`
		)
		expect(failures.slice(0, 10)).toEqual([])
		expect(completed).toBeGreaterThan(CLIENTS)
	}, 60_000)
})
