import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { SavedStore } from '../../src/playground/saved-store'
import { type RobustPlayground, startRobustPlayground } from './support'

// Saving under pressure (issue "Benchmarks and robustness", test 3): 100 concurrent saves under one
// name give 100 distinct, valid files; a save killed in the middle of its write leaves no partial
// saved file behind.
let playground: RobustPlayground
beforeAll(async () => {
	playground = await startRobustPlayground({ listen: true })
})
afterAll(() => playground.stop())

const PROFILE = '/api/users/username/luna.explorer'

describe('concurrent saves', () => {
	test('100 saves under one name at once: 100 distinct, complete files', async () => {
		expect((await fetch(playground.url + PROFILE)).status).toBe(200)
		const responses = await Promise.all(
			Array.from({ length: 100 }, () =>
				fetch(`${playground.url}/api/save`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ name: 'same name' })
				})
			)
		)
		const receipts = await Promise.all(
			responses.map(async (response) => {
				const body = (await response.json()) as {
					success: boolean
					data: { name: string; file: string; size: number }
				}
				expect({ status: response.status, success: body.success }).toEqual({ status: 200, success: true })
				return body.data
			})
		)
		const expectedNames = ['same_name', ...Array.from({ length: 99 }, (_, index) => `same_name-${index + 2}`)]
		expect(receipts.map((receipt) => receipt.name).sort()).toEqual(expectedNames.sort())

		const files = (await readdir(playground.savedDir)).sort()
		expect(files).toEqual(expectedNames.map((name) => `${name}.json`).sort())
		for (const receipt of receipts) {
			const file = path.join(playground.savedDir, `${receipt.name}.json`)
			const content = JSON.parse(await readFile(file, 'utf8'))
			expect(content).toMatchObject({
				name: receipt.name,
				request: `GET ${PROFILE}`,
				result: { success: true, data: { username: 'luna.explorer' } }
			})
			expect((await stat(file)).size).toBe(receipt.size)
		}
	}, 30_000)
})

/**
 * Starts the child, reads the full file size it announces, and kills it once its temporary file
 * grows. `sizeAtKill` is 0 when the child finished its save before the kill could land.
 */
async function killMidWrite(directory: string): Promise<{ fullSize: number; sizeAtKill: number }> {
	const child = Bun.spawn([process.execPath, path.join(import.meta.dir, 'save-child.ts'), directory, '150'], {
		stdout: 'pipe',
		stderr: 'inherit'
	})
	const reader = child.stdout.getReader()
	let announced = ''
	while (!announced.includes('\n')) {
		const { value, done } = await reader.read()
		if (done) break
		announced += new TextDecoder().decode(value)
	}
	const fullSize = Number(/size (\d+)/.exec(announced)?.[1])
	let sizeAtKill = 0
	const deadline = Date.now() + 20_000
	while (Date.now() < deadline && child.exitCode === null) {
		const temporary = (await readdir(directory)).find((name) => name.endsWith('.tmp'))
		const size = temporary
			? ((await stat(path.join(directory, temporary)).catch(() => undefined))?.size ?? 0)
			: 0
		if (size > 0) {
			child.kill('SIGKILL')
			sizeAtKill = size
			break
		}
		await Bun.sleep(1)
	}
	reader.releaseLock()
	await child.exited
	if (sizeAtKill > 0) expect(child.signalCode).toBe('SIGKILL')
	else expect(child.exitCode).toBe(0)
	return { fullSize, sizeAtKill }
}

describe('interrupted save', () => {
	const directories: string[] = []
	afterAll(async () => {
		for (const directory of directories) await rm(directory, { recursive: true, force: true })
	})

	test('a save killed before its rename leaves no partial saved file, and the name can be saved again', async () => {
		// The kill can land inside the write, after its last byte but before the rename, or miss the
		// save entirely on a fast disk (the file grows in jumps of 100+ MiB): try again until one
		// attempt lands before the rename. Mid-write or after the last byte, nothing may be saved.
		let interrupted = false
		for (let attempt = 0; attempt < 20 && !interrupted; attempt++) {
			const directory = await mkdtemp(path.join(tmpdir(), 'smkit-interrupted-'))
			directories.push(directory)
			const { fullSize, sizeAtKill } = await killMidWrite(directory)
			expect(fullSize).toBeGreaterThan(100 * 1024 * 1024)
			expect(sizeAtKill).toBeLessThanOrEqual(fullSize)
			const renamed = (await readdir(directory)).includes('big.json')
			// The child finished, or was killed after its rename: its save must be complete, and that is all.
			if (sizeAtKill === 0 || renamed) {
				expect(await new SavedStore(directory).read('big')).toMatchObject({ name: 'big' })
				continue
			}
			interrupted = true

			// No saved file under the final name, nothing listed, nothing readable.
			const names = await readdir(directory)
			expect(names.filter((name) => !name.startsWith('.'))).toEqual([])
			const store = new SavedStore(directory)
			expect(await store.list()).toEqual([])
			await expect(store.read('big')).rejects.toThrow('not found')

			// The interrupted name is free: the next save takes it, complete.
			const receipt = await store.save('big', 'GET /api/status', { success: true, data: { ok: 1 } })
			expect(receipt.name).toBe('big')
			expect(await store.read('big')).toMatchObject({ name: 'big', result: { data: { ok: 1 } } })
		}
		expect(interrupted).toBe(true)
	}, 180_000)
})
