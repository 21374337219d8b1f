/**
 * Comments and likers jobs name their post by its media pk, whatever spelling was typed: a post
 * URL with or without a trailing slash or query string, /reel/ for /p/, the owner in the path, the
 * bare shortcode, the pk or a `pk_owner` media id. A rerun written differently continues the
 * unfinished job instead of starting a second one (compiled binary, against a simulator).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseCollectArguments } from '../../src/jobs/collect'
import { DEMO_PRESETS } from '../../src/simulator/presets'
import { type Simulator, startSimulator } from '../../src/simulator/server'
import { openStore } from '../../src/store/db'
import { compiledBinary } from '../support/binary'

const [post] = DEMO_PRESETS.media
const { code, pk } = post as { code: string; pk: string }

const SPELLINGS = [
	`https://www.instagram.com/p/${code}/`,
	`https://www.instagram.com/p/${code}`,
	`https://instagram.com/p/${code}/?igsh=abc123&img_index=2`,
	`https://www.instagram.com/reel/${code}/`,
	`https://www.instagram.com/luna.explorer/p/${code}/`,
	`www.instagram.com/p/${code}/`,
	`  ${code} `,
	pk,
	`${pk}_1000000002`
]

test('every spelling of one post is the same target: its media pk', () => {
	for (const kind of ['comments', 'likers'] as const)
		for (const spelling of SPELLINGS)
			expect(parseCollectArguments(kind, spelling)).toEqual({ kind, target: pk })
})

test('a URL that is not an instagram.com post, and a word that is no media, are bad usage', () => {
	for (const target of [
		`https://example.com/p/${code}/`,
		'https://www.instagram.com/luna.explorer/',
		'luna.explorer',
		'12ab'
	])
		expect(() => parseCollectArguments('likers', target)).toThrow(
			'TARGET of likers must be a media pk, post URL or shortcode'
		)
})

let binary: string
let simulator: Simulator
let folder: string
beforeAll(async () => {
	;[binary, simulator] = await Promise.all([compiledBinary(), startSimulator()])
	folder = mkdtempSync(join(tmpdir(), 'smkit-media-target-'))
}, 120_000)
afterAll(async () => {
	await simulator.stop()
	rmSync(folder, { recursive: true, force: true })
})

async function collect(...args: string[]) {
	const child = Bun.spawn([binary, 'collect', ...args, '--db', 'media.db', '--demo'], {
		cwd: folder,
		env: { ...process.env, SMKIT_UPSTREAM_URL: simulator.url, NO_COLOR: '1' },
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const [exitCode, stderr] = await Promise.all([
		child.exited,
		new Response(child.stderr).text(),
		new Response(child.stdout).text()
	])
	return { exitCode, stderr }
}

test('a job paused under a post URL continues when the rerun names the post by its shortcode', async () => {
	simulator.faults.set({ kind: 'login', pathPattern: '/comments/' })
	const paused = await collect('comments', `https://www.instagram.com/reel/${code}/?utm_source=ig_web`)
	simulator.faults.clear()
	expect(paused.exitCode).not.toBe(0)
	expect(paused.stderr).toContain('paused')
	const rerun = await collect('comments', code)
	expect(rerun.stderr).toContain('Continuing job 1')
	expect(rerun.exitCode).toBe(0)
	const store = openStore(join(folder, 'media.db'))
	const jobs = store.db.query<{ id: number; target: string }, []>('SELECT id, target FROM jobs').all()
	store.close()
	expect(jobs).toEqual([{ id: 1, target: pk }])
}, 60_000)
