import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
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
})
