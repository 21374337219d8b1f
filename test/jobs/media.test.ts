/**
 * The `media` job kind against the simulator: every image and video of a user's posts lands in
 * `<data dir>/downloads/<username>/`, a file already there is skipped and never overwritten, a
 * second run downloads nothing, leftovers of a killed download are removed, names from the
 * data cannot leave the folder, and a file over the size limit is refused and leaves nothing.
 */
import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Media } from '../../src/client/types'
import {
	DownloadTooLarge,
	downloadFolder,
	downloadMediaFiles,
	filesOf,
	sweepTemporaryFiles
} from '../../src/jobs/downloads'
import { runJob } from '../../src/jobs/run'
import { JobStore } from '../../src/jobs/store'
import { openStore, type Store } from '../../src/store/db'
import { DEMO, useSimulator } from '../client/simulator-setup'

const simulator = useSimulator()
let folder: string
let store: Store
let jobs: JobStore

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-media-'))
	store = openStore(join(folder, 'smkit.db'))
	jobs = new JobStore(store)
})
afterEach(() => {
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

/** A fetch that counts the files it was asked for. */
function countingFetch() {
	const urls: string[] = []
	const fetcher = ((url: string | URL | Request, init?: RequestInit) => {
		urls.push(String(url))
		return fetch(url, init)
	}) as typeof fetch
	return { urls, fetcher }
}

const LIMIT = 40

describe('media job', () => {
	test('downloads every image and video of the posts once, into downloads/<username>/', async () => {
		const downloads = join(folder, 'downloads', DEMO.luna.username)
		// The first post's first file is already there (a user's own copy), and a killed run left a part.
		const first = (await simulator.client().feed.getUserFeed(DEMO.luna.pk, { count: 1 })).items[0] as Media
		const existing = filesOf(first)[0]?.name as string
		mkdirSync(downloads, { recursive: true })
		writeFileSync(join(downloads, existing), 'mine')
		writeFileSync(join(downloads, `${existing}.part-4242`), 'half')

		const { urls, fetcher } = countingFetch()
		const job = jobs.create({ kind: 'media', target: DEMO.luna.username, limit: LIMIT })
		const finished = await runJob(jobs, job.id, { ig: simulator.client(), dataDir: folder, fetch: fetcher })
		expect(finished).toMatchObject({ status: 'done', collected: LIMIT })

		const records = [...jobs.records(job.id)] as (Media & { files: string[] })[]
		const names = records.flatMap((record) => record.files)
		expect(new Set(names).size).toBe(names.length)
		expect(readdirSync(downloads).sort()).toEqual([...names].sort())
		// Images and videos both: the data has reels among the first posts.
		expect(names.some((name) => name.endsWith('.mp4'))).toBe(true)
		expect(names.some((name) => name.endsWith('.svg'))).toBe(true)
		// Each file is what the URL serves; the file already there was skipped, not replaced.
		expect(readFileSync(join(downloads, existing), 'utf8')).toBe('mine')
		expect(urls).toHaveLength(names.length - 1)
		const video = records.find((record) => record.video_versions.length > 0) as Media
		const videoName = filesOf(video)[0]?.name as string
		const served = new Uint8Array(await (await fetch(video.video_versions[0]?.url as string)).arrayBuffer())
		expect(new Uint8Array(readFileSync(join(downloads, videoName)))).toEqual(served)

		// A second job over the same posts finds every file in place and fetches none.
		const again = countingFetch()
		const second = jobs.create({ kind: 'media', target: DEMO.luna.username, limit: LIMIT })
		expect(
			await runJob(jobs, second.id, { ig: simulator.client(), dataDir: folder, fetch: again.fetcher })
		).toMatchObject({ status: 'done', collected: LIMIT })
		expect(again.urls).toEqual([])
		expect(readdirSync(downloads).sort()).toEqual([...names].sort())
	})

	test('a failing file download makes the job wait and try again, then finish', async () => {
		let failures = 2
		const fetcher = ((url: string | URL | Request, init?: RequestInit) => {
			if (failures-- > 0) return Promise.resolve(new Response('busy', { status: 503 }))
			return fetch(url, init)
		}) as typeof fetch
		const job = jobs.create({ kind: 'media', target: DEMO.luna.username, limit: 5 })
		const finished = await runJob(jobs, job.id, {
			ig: simulator.client(),
			dataDir: folder,
			fetch: fetcher,
			backoffMs: 1,
			maxBackoffMs: 5
		})
		expect(finished).toMatchObject({ status: 'done', collected: 5 })
		const names = [...jobs.records(job.id)].flatMap((record) => (record as { files: string[] }).files)
		for (const name of names)
			expect(existsSync(join(folder, 'downloads', DEMO.luna.username, name))).toBe(true)
	})

	test('a file the server no longer has (404, 410) is listed as missing; the job goes on without waiting', async () => {
		let gone = 0
		const fetcher = ((url: string | URL | Request, init?: RequestInit) => {
			// The first two files asked for are gone, one each way; the others are there.
			if (gone < 2) return Promise.resolve(new Response('gone', { status: gone++ === 0 ? 404 : 410 }))
			return fetch(url, init)
		}) as typeof fetch
		const job = jobs.create({ kind: 'media', target: DEMO.luna.username, limit: 5 })
		const events: string[] = []
		const finished = await runJob(jobs, job.id, {
			ig: simulator.client(),
			dataDir: folder,
			fetch: fetcher,
			backoffMs: 60_000,
			onEvent: (event) => events.push(event.type)
		})
		expect(finished).toMatchObject({ status: 'done', collected: 5 })
		expect(events).not.toContain('wait')
		const records = [...jobs.records(job.id)] as { files: string[]; missing_files?: string[] }[]
		const missing = records.flatMap((record) => record.missing_files ?? [])
		expect(missing).toHaveLength(2)
		const downloads = join(folder, 'downloads', DEMO.luna.username)
		for (const name of missing) expect(existsSync(join(downloads, name))).toBe(false)
		for (const name of records.flatMap((record) => record.files))
			expect(existsSync(join(downloads, name))).toBe(true)
		expect(records.flatMap((record) => record.files)).not.toContain(missing[0])
	})

	test("sweeping leftovers removes a dead writer's temporary files, never a live one's", () => {
		const target = join(folder, 'sweep')
		mkdirSync(target, { recursive: true })
		const dead = Bun.spawnSync(['true']).pid
		const names = [
			`A.jpg.part-${dead}-00aa11bb`,
			`B.jpg.part-${process.pid}-00aa11bb`,
			`C.jpg.part-${process.ppid}-00aa11bb`,
			'D.jpg'
		]
		for (const name of names) writeFileSync(join(target, name), 'x')
		sweepTemporaryFiles(target)
		expect(readdirSync(target).sort()).toEqual(names.slice(1).sort())
	})

	test('a file over the size limit is refused and leaves nothing behind, declared or not', async () => {
		const post = {
			pk: '1',
			code: 'BigFile',
			carousel: [],
			video_versions: [],
			image_versions: [{ url: 'https://cdn.example/big.jpg' }]
		} as unknown as Media
		const target = join(folder, 'files')
		const megabyte = new Uint8Array(1024 * 1024)
		// Three 1 MiB chunks, no declared length: refused while it streams.
		const undeclared = (() =>
			Promise.resolve(
				new Response(
					new ReadableStream({
						start(controller) {
							for (let chunk = 0; chunk < 3; chunk++) controller.enqueue(megabyte)
							controller.close()
						}
					})
				)
			)) as unknown as typeof fetch
		const signal = new AbortController().signal
		const limit = 2 * 1024 * 1024
		await expect(downloadMediaFiles(post, target, signal, undeclared, limit)).rejects.toThrow(
			DownloadTooLarge
		)
		expect(readdirSync(target)).toEqual([])
		// The same file within the limit is written whole.
		expect(await downloadMediaFiles(post, target, signal, undeclared, 4 * 1024 * 1024)).toEqual({
			files: ['BigFile.jpg'],
			missing: []
		})
		expect(readFileSync(join(target, 'BigFile.jpg')).byteLength).toBe(3 * 1024 * 1024)
	})

	test('a job whose file declares more than 2 GiB fails at once, naming the file, instead of retrying', async () => {
		const huge = (() =>
			Promise.resolve(
				new Response('not really that big', { headers: { 'content-length': String(3 * 1024 ** 3) } })
			)) as unknown as typeof fetch
		const job = jobs.create({ kind: 'media', target: DEMO.luna.username, limit: 1 })
		const finished = await runJob(jobs, job.id, {
			ig: simulator.client(),
			dataDir: folder,
			fetch: huge,
			backoffMs: 1,
			maxBackoffMs: 5
		})
		expect(finished.status).toBe('failed')
		expect(finished.error).toMatch(/^download of \S+ refused: the file is larger than 2,048 MiB$/)
		expect(readdirSync(join(folder, 'downloads', DEMO.luna.username))).toEqual([])
	})

	test("a file system error of the job names the file without the server's absolute path", async () => {
		// `downloads` is a file, so its folder for the user cannot be made.
		writeFileSync(join(folder, 'downloads'), 'not a folder')
		const job = jobs.create({ kind: 'media', target: DEMO.luna.username, limit: 1 })
		const finished = await runJob(jobs, job.id, { ig: simulator.client(), dataDir: folder })
		expect(finished.status).toBe('failed')
		expect(finished.error).toContain(`'.../downloads/${DEMO.luna.username}'`)
		expect(finished.error).not.toContain(folder)
	})

	test('names from the data cannot leave the download folder', () => {
		for (const username of ['..', '../etc', 'a/b', '.', '', 'x'.repeat(31)])
			expect(() => downloadFolder(folder, username)).toThrow()
		expect(downloadFolder(folder, 'luna.explorer')).toBe(join(folder, 'downloads', 'luna.explorer'))
		const hostile = {
			pk: '3842790443716764595',
			code: '../../evil',
			carousel: [],
			video_versions: [],
			image_versions: [{ url: 'https://cdn.example/x/..%2F..%2Fpasswd?x=1' }]
		} as unknown as Media
		const [file] = filesOf(hostile)
		expect(file?.name).toBe('3842790443716764595.jpg')
		expect(
			filesOf({ ...hostile, image_versions: [{ url: 'javascript:alert(1)' }] } as unknown as Media)
		).toEqual([])
		// The URL picks among media extensions only: not what opening the file runs.
		const named = (url: string, video = false) =>
			filesOf({
				...hostile,
				code: 'Post',
				image_versions: [{ url }],
				video_versions: video ? [{ url }] : []
			} as unknown as Media)[0]?.name
		expect(named('https://cdn.example/a/picture.WEBP?x=1')).toBe('Post.webp')
		expect(named('https://cdn.example/a/clip.mov', true)).toBe('Post.mov')
		for (const extension of ['html', 'exe', 'bat', 'sh', 'js', 'hta'])
			expect(named(`https://cdn.example/a/file.${extension}`)).toBe('Post.jpg')
		expect(named('https://cdn.example/a/run.cmd', true)).toBe('Post.mp4')
	})
})
