/**
 * Writing a job's records to `--out` when the path is not a plain file: a pipe (as /dev/null or
 * /dev/stdout are devices) is written into and stays a pipe, and a symbolic link keeps pointing at
 * the file it names, which gets the records. A write that fails leaves no temporary file behind, and
 * one a killed write left is removed by the next.
 */
import { afterEach, beforeEach, expect, test } from 'bun:test'
import {
	linkSync,
	lstatSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	readlinkSync,
	rmSync,
	symlinkSync,
	writeFileSync
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { writeExport } from '../../src/jobs/export-file'
import { JobStore } from '../../src/jobs/store'
import { openStore, type Store } from '../../src/store/db'

let folder: string
let store: Store
let jobs: JobStore
let id: number
const expected = '{"pk":"1"}\n{"pk":"2"}\n'

beforeEach(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-export-'))
	store = openStore(join(folder, 'smkit.db'))
	jobs = new JobStore(store)
	id = jobs.create({ kind: 'followers', target: 'x' }).id
	jobs.storePage(
		id,
		[
			{ key: '1', data: { pk: '1' } },
			{ key: '2', data: { pk: '2' } }
		],
		null
	)
})
afterEach(() => {
	store.close()
	rmSync(folder, { recursive: true, force: true })
})

test('a pipe is written into and stays a pipe (renamed over, /dev/null would become a file)', async () => {
	const pipe = join(folder, 'pipe')
	expect(Bun.spawnSync(['mkfifo', pipe]).exitCode).toBe(0)
	const reader = Bun.spawn(['cat', pipe], { stdout: 'pipe' })
	try {
		await writeExport(jobs, id, 'jsonl', pipe)
		expect(lstatSync(pipe).isFIFO()).toBe(true)
		expect(await new Response(reader.stdout).text()).toBe(expected)
	} finally {
		reader.kill()
	}
})

test('a symbolic link stays a link; the file it names gets the records', async () => {
	mkdirSync(join(folder, 'data'))
	const link = join(folder, 'latest.jsonl')
	symlinkSync(join(folder, 'data', 'followers.jsonl'), link)
	await writeExport(jobs, id, 'jsonl', link)
	expect(lstatSync(link).isSymbolicLink()).toBe(true)
	expect(readlinkSync(link)).toBe(join(folder, 'data', 'followers.jsonl'))
	expect(readFileSync(join(folder, 'data', 'followers.jsonl'), 'utf8')).toBe(expected)
	await writeExport(jobs, id, 'csv', link)
	expect(lstatSync(link).isSymbolicLink()).toBe(true)
	expect(readFileSync(link, 'utf8')).toBe('\uFEFFpk\r\n1\r\n2')
})

test('a caption with line or paragraph separators stays on its record line in JSONL and JSON', async () => {
	const caption = 'first\u2028second\u2029third\u0085fourth'
	jobs.storePage(id, [{ key: '3', data: { pk: '3', caption_text: caption } }], null)
	for (const format of ['jsonl', 'json'] as const) {
		const out = join(folder, `records.${format}`)
		await writeExport(jobs, id, format, out)
		const text = readFileSync(out, 'utf8')
		// Python's str.splitlines() (and editors) break lines at these characters: none is left raw.
		expect(text).not.toMatch(/[\u0085\u2028\u2029]/)
		const records =
			format === 'json'
				? JSON.parse(text)
				: text
						.trim()
						.split('\n')
						.map((line) => JSON.parse(line))
		expect(records).toHaveLength(3)
		expect(records[2].caption_text).toBe(caption)
	}
})

test('a list with no records is a CSV with the header of its records, not an empty file', async () => {
	const header = async (kind: 'followers' | 'posts' | 'comments') => {
		const empty = jobs.create({ kind, target: `empty-${kind}` }).id
		const out = join(folder, `${kind}.csv`)
		await writeExport(jobs, empty, 'csv', out)
		const bytes = readFileSync(out)
		expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
		return bytes.subarray(3).toString('utf8').split(',')
	}
	expect(await header('followers')).toEqual([
		'pk',
		'username',
		'full_name',
		'is_private',
		'is_verified',
		'profile_pic_url'
	])
	const posts = await header('posts')
	expect(posts.slice(0, 3)).toEqual(['pk', 'id', 'code'])
	expect(posts).toContain('user.username')
	expect(posts).toContain('location.name')
	expect(posts).not.toContain('location')
	expect(await header('comments')).toEqual(expect.arrayContaining(['text', 'user.pk', 'replies']))
})

test('a file that cannot be written whole leaves no temporary file filling the disk', () => {
	const path = join(folder, 'followers.csv')
	writeFileSync(path, 'the previous export')
	// Enough records for several batches, in a process whose files may not pass 4 KiB (RLIMIT_FSIZE),
	// so the write fails part-way as on a full disk. Its store is in memory: no file of its own grows.
	const script = `import { writeExport } from ${JSON.stringify(resolve('src/jobs/export-file.ts'))}
import { JobStore } from ${JSON.stringify(resolve('src/jobs/store.ts'))}
import { openStore } from ${JSON.stringify(resolve('src/store/db.ts'))}
const jobs = new JobStore(openStore(':memory:'))
const id = jobs.create({ kind: 'followers', target: 'big' }).id
jobs.storePage(id, Array.from({ length: 3000 }, (_, n) => ({ key: String(n), data: { pk: String(n) } })), null)
try { await writeExport(jobs, id, 'csv', ${JSON.stringify(path)}); console.log('written') }
catch (error) { console.log(error.message) }`
	const run = Bun.spawnSync(['prlimit', '--fsize=4096', process.execPath, '-e', script])
	expect(run.stdout.toString().trim()).toBe(
		`cannot write ${path}: the file would be larger than the file size limit allows`
	)
	expect(readdirSync(folder).filter((name) => name.startsWith('followers.csv'))).toEqual(['followers.csv'])
	expect(readFileSync(path, 'utf8')).toBe('the previous export')
})

test("a link planted at the temporary file's name is not written through: the file it names stays as it was", async () => {
	const path = join(folder, 'followers.csv')
	const victim = join(folder, 'victim.txt')
	writeFileSync(victim, 'precious')
	symlinkSync(victim, `${path}.tmp-${process.pid}`)
	await writeExport(jobs, id, 'jsonl', path)
	expect(readFileSync(path, 'utf8')).toBe(expected)
	expect(readFileSync(victim, 'utf8')).toBe('precious')
	// A hard link is refused before anything is changed, and removed so that the next write works.
	linkSync(victim, `${path}.tmp-${process.pid}`)
	await expect(writeExport(jobs, id, 'csv', path)).rejects.toThrow(
		`cannot write ${path}: a link to another file was in the way of its temporary file`
	)
	expect(readFileSync(victim, 'utf8')).toBe('precious')
	expect(readFileSync(path, 'utf8')).toBe(expected)
	expect(readdirSync(folder).filter((name) => name.includes('.tmp-'))).toEqual([])
})

test('temporary files of writes whose process is gone are removed; a running process keeps its own', async () => {
	const path = join(folder, 'followers.csv')
	const running = Bun.spawn(['sleep', '60'])
	const gone = Bun.spawn(['true'])
	await gone.exited
	try {
		for (const pid of [running.pid, gone.pid]) writeFileSync(`${path}.tmp-${pid}`, 'part of a file')
		// Not ours: a name that only looks like one, and a folder.
		writeFileSync(`${path}.tmp-${gone.pid}x`, 'a file of the user')
		mkdirSync(`${path}.tmp-1999999999`)
		await writeExport(jobs, id, 'csv', path)
		expect(
			readdirSync(folder)
				.filter((name) => name.startsWith('followers.csv'))
				.sort()
		).toEqual(
			[
				'followers.csv',
				`followers.csv.tmp-${gone.pid}x`,
				'followers.csv.tmp-1999999999',
				`followers.csv.tmp-${running.pid}`
			].sort()
		)
	} finally {
		running.kill()
	}
})
