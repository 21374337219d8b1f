import { afterAll, describe, expect, it } from 'bun:test'
import { constants } from 'node:fs'
import { mkdir, mkdtemp, open, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SavedStore } from '../../src/playground/saved-store'

const folders: string[] = []
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))))

/** The pid of a process that has already exited. */
async function deadPid(): Promise<number> {
	const child = Bun.spawn(['true'])
	await child.exited
	return child.pid
}

describe('SavedStore', () => {
	it('removes temporary files of writers that died mid-save, and only those', async () => {
		const folder = await mkdtemp(join(tmpdir(), 'smkit-sweep-'))
		folders.push(folder)
		const uuid = crypto.randomUUID()
		const abandoned = `.nike.json.${await deadPid()}.${uuid}.tmp`
		const inProgress = `.adidas.json.${process.pid}.${uuid}.tmp`
		const unrelated = '.notes.tmp'
		for (const name of [abandoned, inProgress, unrelated]) await writeFile(join(folder, name), '{"partial":')

		const store = new SavedStore(folder)
		await store.save('puma', 'GET /api/status', { success: true })
		const names = await readdir(folder)
		expect(names).not.toContain(abandoned)
		expect(names).toContain(inProgress)
		expect(names).toContain(unrelated)
		expect(names).toContain('puma.json')
		expect((await store.list()).map((entry) => entry.name)).toEqual(['puma'])
	})

	it('skips a FIFO, a directory or a socket-like entry instead of blocking on it', async () => {
		const folder = await mkdtemp(join(tmpdir(), 'smkit-fifo-'))
		folders.push(folder)
		const fifo = join(folder, 'trap.json')
		expect(Bun.spawnSync(['mkfifo', fifo]).exitCode).toBe(0)
		await mkdir(join(folder, 'folder.json'))
		const store = new SavedStore(folder)
		await store.save('real', 'GET /api/status', { success: true })

		/** The outcome of `work`, or 'hung' when it takes longer than 3 seconds. */
		const withinSeconds = (work: Promise<unknown>) =>
			Promise.race([
				work.then(
					(value) => ({ value }),
					(error) => ({ error })
				),
				Bun.sleep(3000).then(() => 'hung')
			])
		try {
			const listed = await withinSeconds(store.list())
			expect(listed).toEqual({ value: [expect.objectContaining({ name: 'real' })] })
			const read = await withinSeconds(store.read('trap.json'))
			expect(read).toMatchObject({ error: { code: 'not_found' } })
			const readFolder = await withinSeconds(store.read('folder'))
			expect(readFolder).toMatchObject({ error: { code: 'not_found' } })
		} finally {
			// Releases any reader still blocked on the FIFO (a writer end opening unblocks it).
			const writer = await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).catch(() => undefined)
			await writer?.close()
		}
	})
})
