import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { readdir, readFile } from 'node:fs/promises'
import { Value } from '@sinclair/typebox/value'
import { FailureEnvelope } from '../../src/playground/envelope'
import { sanitizeName } from '../../src/playground/saved-names'
import { expectNoLeaks, type PlaygroundHarness, startPlayground } from './support'

/** Names of any script are kept (docs/api-contract.md, "Saving"): NFC, 100 characters, 150 bytes. */
let playground: PlaygroundHarness

beforeAll(async () => {
	playground = await startPlayground()
	expect((await playground.json('/api/users/username/luna.explorer')).status).toBe(200)
})
afterAll(() => playground.stop())

const bytes = (text: string) => Buffer.byteLength(text, 'utf8')
const post = (name: unknown) => playground.request('POST', '/api/save', { body: { name } })
/** Saves the last result under `name` and returns the saved name. */
async function saveAs(name: string): Promise<string> {
	const response = await post(name)
	expect({ name, status: response.status }).toEqual({ name, status: 200 })
	return (await response.json()).data.name
}
const savedPath = (filename: string) => `/api/saved/${encodeURIComponent(filename)}`

describe('names in any script', () => {
	it.each([
		['été', 'été'],
		['путешествия', 'путешествия'],
		['旅行', '旅行'],
		['Ελλάδα 2024!', 'Ελλάδα_2024'],
		['ünïcödé name', 'ünïcödé_name'],
		// A joiner between two letters is part of the word (Persian writes with ZWNJ); elsewhere not.
		['می\u200cخواهم', 'می\u200cخواهم'],
		['a\u200c b\u200d', 'a_b']
	])('saves %p as %p.json', async (given, expected) => {
		const name = await saveAs(given)
		expect(name).toBe(expected)
		expect(await readdir(playground.savedDir)).toContain(`${expected}.json`)
		const content = JSON.parse(await readFile(`${playground.savedDir}/${expected}.json`, 'utf8'))
		expect(content.name).toBe(expected)
		// What a save writes, a read finds.
		expect((await playground.request('GET', savedPath(expected))).status).toBe(200)
	})

	it('normalises a decomposed (NFD) name to NFC', async () => {
		const decomposed = 'cafe\u0301'
		expect(decomposed).not.toBe('café')
		expect(await saveAs(decomposed)).toBe('café')
		expect(await readdir(playground.savedDir)).toContain('café.json')
	})

	it('lists the Unicode-named files', async () => {
		const { status, body } = await playground.json('/api/saved')
		expect(status).toBe(200)
		const names = body.data.map((entry: { name: string }) => entry.name)
		for (const name of ['été', 'путешествия', '旅行', 'café']) expect(names).toContain(name)
		const entry = body.data.find((item: { name: string }) => item.name === '旅行')
		expect(entry).toMatchObject({ request: 'GET /api/users/username/luna.explorer' })
		expect(entry.file.endsWith('/旅行.json')).toBe(true)
	})

	it('reads a Unicode-named file by its URL-encoded name, with or without .json, in NFC or NFD', async () => {
		for (const filename of [
			'été',
			'été.json',
			'путешествия',
			'旅行.json',
			'e\u0301te\u0301',
			'e\u0301te\u0301.json'
		]) {
			const { status, body } = await playground.json(savedPath(filename))
			expect({ filename, status }).toEqual({ filename, status: 200 })
			expect(body.data.result.data.username).toBe('luna.explorer')
		}
	})

	it('deletes a Unicode-named file, also given in NFD, once', async () => {
		await saveAs('à supprimer')
		expect(await readdir(playground.savedDir)).toContain('à_supprimer.json')
		const deleted = await playground.request('DELETE', savedPath('a\u0300_supprimer'))
		expect(deleted.status).toBe(200)
		expect((await deleted.json()).data).toEqual({ deleted: 'à_supprimer.json' })
		expect(await readdir(playground.savedDir)).not.toContain('à_supprimer.json')
		expect((await playground.request('DELETE', savedPath('à_supprimer.json'))).status).toBe(404)
	})
})

describe('length: 100 characters and 150 UTF-8 bytes', () => {
	it('cuts 100 CJK characters to the byte budget, and the file reads back', async () => {
		const name = await saveAs('旅'.repeat(100))
		expect(name).toBe('旅'.repeat(50))
		expect(bytes(name)).toBe(150)
		// The temporary name `.<name>.json.<pid>.<uuid>.tmp` fits the 255 bytes of a file name.
		expect(bytes(`.${name}.json.${4_194_304}.${crypto.randomUUID()}.tmp`)).toBeLessThan(255)
		const { status, body } = await playground.json(savedPath(`${name}.json`))
		expect(status).toBe(200)
		expect(body.data.name).toBe(name)
	})

	it('gives a taken long name its -2 suffix within the budget', async () => {
		const second = await saveAs('旅'.repeat(100))
		expect(second).toBe(`${'旅'.repeat(49)}-2`)
		expect(bytes(second)).toBeLessThanOrEqual(150)
		expect((await playground.json(savedPath(second))).status).toBe(200)
		const ascii = [await saveAs('k'.repeat(120)), await saveAs('k'.repeat(120))]
		expect(ascii).toEqual(['k'.repeat(100), `${'k'.repeat(98)}-2`])
		const cyrillic = [await saveAs('ж'.repeat(90)), await saveAs('ж'.repeat(90))]
		expect(cyrillic).toEqual(['ж'.repeat(75), `${'ж'.repeat(74)}-2`])
		for (const name of [...ascii, ...cyrillic]) expect(bytes(name)).toBeLessThanOrEqual(150)
	})

	it('cuts between characters: no half surrogate pair, no mark without its letter, no trailing separator', () => {
		// 4 bytes each: 37 whole ones, not 37 and a half.
		expect(sanitizeName('𠮷'.repeat(60))).toBe('𠮷'.repeat(37))
		// A letter and its marks stay together or go together (á + U+0302 is 2 code points in NFC).
		expect(sanitizeName(`${'x'.repeat(99)}a\u0301\u0302`)).toBe('x'.repeat(99))
		expect(sanitizeName(`${'x'.repeat(98)}a\u0301\u0302`)).toBe(`${'x'.repeat(98)}\u00E1\u0302`)
		// e + U+0301 is é in NFC, 2 bytes: it fits the last 2 bytes; e + U+0323 + U+0301 (5 bytes) does not.
		expect(sanitizeName(`${'ж'.repeat(74)}e\u0301`)).toBe(`${'ж'.repeat(74)}é`)
		expect(sanitizeName(`${'ж'.repeat(74)}e\u0323\u0301`)).toBe('ж'.repeat(74))
		expect(sanitizeName(`${'ж'.repeat(74)}_ж`)).toBe('ж'.repeat(74))
	})

	it('answers an over-long name that fits the pattern with 400 or 404, never 500', async () => {
		for (const filename of ['旅'.repeat(51), '旅'.repeat(100), 'ж'.repeat(200), `${'a'.repeat(101)}.json`]) {
			for (const method of ['GET', 'DELETE']) {
				const response = await playground.request(method, savedPath(filename))
				expect([400, 404]).toContain(response.status)
				expect(Value.Check(FailureEnvelope, await response.json())).toBe(true)
			}
		}
		expect(playground.logs.filter((line) => line.includes('ENAMETOOLONG'))).toEqual([])
	})
})

describe('still refused', () => {
	it.each([['!!!'], ['...'], ['—–…'], ['❤️'], ['👍🏽🎉'], ['🇫🇷'], ['\u0301\u0301']])(
		'a name with no letter or digit (%p) is a 400',
		async (name) => {
			const response = await post(name)
			expect(response.status).toBe(400)
			expect((await response.json()).code).toBe('bad_request')
		}
	)

	it('says a refused name needs a letter or a digit, of any script', async () => {
		const body = await (await post('❤️')).json()
		expect(body.error).toContain('it needs a letter or a digit')
		expect(body.error).toContain('letters and digits of any script, _ or -')
	})

	it('keeps a traversal attempt in a Unicode name inside the directory', async () => {
		expect(await saveAs('../../étoile/../x')).toBe('étoile_x')
		expect(await readdir(playground.savedDir)).toContain('étoile_x.json')
	})

	it.each([
		['../x'],
		['..%2Fx'],
		['%2e%2e'],
		['%2e%2e%2f%C3%A9t%C3%A9'],
		['..%2F%C3%A9t%C3%A9.json'],
		['%E2%80%A4%E2%80%A4%2Fx'],
		['%EF%BC%8E%EF%BC%8E%EF%BC%8F%E6%97%85'],
		['%E2%9D%A4%EF%B8%8F'],
		['%F0%9F%91%8D'],
		['%C3%A9t%C3%A9%20.json'],
		['%C3%A9t%C3%A9.json.'],
		['_%C3%A9t%C3%A9'],
		['%CC%81%C3%A9t%C3%A9'],
		['%C3%A9t%C3%A9%00']
	])('reads and deletes nothing for %p (400 or 404)', async (variant) => {
		const before = (await readdir(playground.savedDir)).sort()
		for (const method of ['GET', 'DELETE']) {
			const response = await playground.request(method, `/api/saved/${variant}`)
			expect([400, 404, 405]).toContain(response.status)
			const text = await response.text()
			expect(Value.Check(FailureEnvelope, JSON.parse(text))).toBe(true)
		}
		expect((await readdir(playground.savedDir)).sort()).toEqual(before)
	})

	it('says which characters a filename may have', async () => {
		const response = await playground.get(savedPath('été!'))
		expect(response.status).toBe(400)
		expect((await response.json()).error).toContain('letters and digits of any script, _ or -')
		expectNoLeaks(playground)
	})
})
