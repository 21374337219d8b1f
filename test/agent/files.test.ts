import { afterAll, describe, expect, test } from 'bun:test'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { OutputFiles, sanitiseFileName } from '../../src/agent/files'

const roots: string[] = []
async function workspace() {
	const root = await mkdtemp(path.join(tmpdir(), 'smkit-files-'))
	roots.push(root)
	return root
}
afterAll(async () => {
	for (const root of roots) await rm(root, { recursive: true, force: true })
})

describe('output files', () => {
	test('names are reduced to a safe base name with an extension', () => {
		expect(sanitiseFileName('../../etc/passwd')).toBe('passwd.txt')
		expect(sanitiseFileName('..\\..\\win.ini')).toBe('win.ini')
		expect(sanitiseFileName('luna followers (2024).csv')).toBe('luna_followers_2024_.csv')
		expect(sanitiseFileName('.hidden')).toBe('hidden.txt')
		expect(() => sanitiseFileName('../')).toThrow()
	})

	test('creates the folder on demand, returns a relative path, and never overwrites', async () => {
		const root = await workspace()
		const files = new OutputFiles('output', { cwd: root })
		const first = await files.save('report.json', '{"a":1}')
		const second = await files.save('report.json', '{"a":2}')
		expect(first).toEqual({ name: 'report.json', file: 'output/report.json', size: 7 })
		expect(second.name).toBe('report-2.json')
		expect(second.file).toBe('output/report-2.json')
		expect(await readFile(path.join(root, 'output/report.json'), 'utf8')).toBe('{"a":1}')
		expect(await readFile(path.join(root, 'output/report-2.json'), 'utf8')).toBe('{"a":2}')
		expect((await readdir(path.join(root, 'output'))).sort()).toEqual(['report-2.json', 'report.json'])
	})

	test('a traversal attempt stays inside the folder', async () => {
		const root = await workspace()
		const files = new OutputFiles('out', { cwd: root })
		const saved = await files.save('../../escape.txt', 'x')
		expect(saved.file).toBe('out/escape.txt')
		expect(await readdir(root)).toEqual(['out'])
	})

	test('concurrent saves under one name get distinct files', async () => {
		const root = await workspace()
		const files = new OutputFiles('output', { cwd: root })
		const saved = await Promise.all(
			Array.from({ length: 5 }, (_, index) => files.save('same.txt', String(index)))
		)
		expect(new Set(saved.map((file) => file.name)).size).toBe(5)
		expect(await readdir(path.join(root, 'output'))).toHaveLength(5)
	})
})
