import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Value } from '@sinclair/typebox/value'
import { Envelope, FailureEnvelope } from '../../src/playground/envelope'
import { sanitizeName } from '../../src/playground/saved-names'
import { expectNoLeaks, type PlaygroundHarness, startPlayground } from './support'

let playground: PlaygroundHarness
/** Files planted outside the saved directory: they must survive and never be returned. */
let canaries: string[]
const CANARY = 'CANARY-OUTSIDE-THE-SAVED-DIRECTORY'

let root: string

beforeAll(async () => {
	// root/saved is the saved directory; root/outside/canary.json and root/canary.json sit beside it.
	root = await mkdtemp(path.join(tmpdir(), 'smkit-traversal-'))
	await mkdir(path.join(root, 'saved'))
	await mkdir(path.join(root, 'outside'))
	canaries = [path.join(root, 'outside', 'canary.json'), path.join(root, 'canary.json')]
	for (const file of canaries) await writeFile(file, JSON.stringify({ secret: CANARY }))
	// A link inside the saved directory pointing at a file outside it.
	await symlink(canaries[0], path.join(root, 'saved', 'escape.json'))
	playground = await startPlayground({ savedDir: path.join(root, 'saved') })
})
afterAll(async () => {
	await playground.stop()
	await rm(root, { recursive: true, force: true })
})

const post = (name: unknown) => playground.request('POST', '/api/save', { body: { name } })

describe('POST /api/save', () => {
	it('answers 400 while there is nothing to save', async () => {
		const response = await post('first')
		expect(response.status).toBe(400)
		const body = await response.json()
		expect(Value.Check(FailureEnvelope, body)).toBe(true)
		expect(body.error).toContain('Nothing to save')
	})

	it('saves the last successful data response under a sanitised name, with the request line', async () => {
		const profile = await playground.json('/api/users/username/luna.explorer')
		expect(profile.status).toBe(200)
		const response = await post('Luna profile: the "best"!.json')
		expect(response.status).toBe(200)
		const body = await response.json()
		expect(Value.Check(Envelope, body)).toBe(true)
		expect(body.data.name).toBe('Luna_profile_the_best')
		expect(body.data.file).toBe('saved/Luna_profile_the_best.json')
		expect(path.isAbsolute(body.data.file)).toBe(false)
		const content = JSON.parse(
			await readFile(path.join(playground.savedDir, 'Luna_profile_the_best.json'), 'utf8')
		)
		expect(body.data.size).toBe(Buffer.byteLength(JSON.stringify(content, null, 2)) + 1)
		expect(content).toMatchObject({
			name: 'Luna_profile_the_best',
			request: 'GET /api/users/username/luna.explorer',
			result: { success: true, data: { username: 'luna.explorer' } }
		})
		expect(content.result).toEqual(profile.body)
		expect(new Date(content.saved_at).toISOString()).toBe(content.saved_at)
	})

	it('never overwrites: the same name again gets -2, then -3', async () => {
		await playground.json('/api/users/username/private.pat')
		const second = await (await post('Luna profile: the "best"!')).json()
		const third = await (await post('Luna_profile_the_best')).json()
		expect(second.data.name).toBe('Luna_profile_the_best-2')
		expect(third.data.name).toBe('Luna_profile_the_best-3')
		const first = JSON.parse(
			await readFile(path.join(playground.savedDir, 'Luna_profile_the_best.json'), 'utf8')
		)
		expect(first.result.data.username).toBe('luna.explorer')
	})

	it('keeps every one of several concurrent saves of one name', async () => {
		const receipts = await Promise.all(Array.from({ length: 8 }, () => post('race')))
		const names = await Promise.all(receipts.map(async (response) => (await response.json()).data.name))
		expect(new Set(names).size).toBe(8)
		const files = (await readdir(playground.savedDir)).filter((file) => file.startsWith('race'))
		expect(files.sort()).toEqual(names.map((name) => `${name}.json`).sort())
	})

	it('keeps a traversal attempt in the name inside the directory', async () => {
		const body = await (await post('../../../etc/passwd')).json()
		expect(body.data.name).toBe('etc_passwd')
		expect(await readdir(playground.savedDir)).toContain('etc_passwd.json')
	})

	it.each([[''], ['...'], ['///'], [42], ['x'.repeat(201)]])('rejects the name %p with 400', async (name) => {
		const response = await post(name)
		expect(response.status).toBe(400)
		expect((await response.json()).code).toBe('bad_request')
	})

	it('says what a name without a usable character lacks, not a length it does not break', async () => {
		const body = await (await post('!!!')).json()
		expect(body.error).toBe(
			'Invalid name: it needs a letter or a digit (the file name keeps letters and digits of any script, _ or -, at most 100 characters and 150 bytes)'
		)
	})

	it("saves a list's comparison like any data answer, by its history id or as the last one", async () => {
		const created = await playground.request('POST', '/api/lists', {
			body: { name: 'pair', usernames: ['luna.explorer', 'xss.payload'] }
		})
		expect(created.status).toBe(200)
		const compared = await playground.request('GET', '/api/lists/pair/compare?posts=3')
		expect(compared.status).toBe(200)
		const historyId = Number(compared.headers.get('x-smkit-history-id'))
		const byId = await playground.request('POST', '/api/save', {
			body: { name: 'pair-by-id', history_id: historyId }
		})
		expect(byId.status).toBe(200)
		const last = await post('pair-last')
		const saved = JSON.parse(
			await readFile(path.join(playground.savedDir, (await last.json()).data.name + '.json'), 'utf8')
		)
		expect(saved.request).toBe('GET /api/lists/pair/compare?posts=3')
	})

	it('a history id no longer in the history (the last 50 requests) is a 404, whatever kind they were', async () => {
		const profile = await playground.request('GET', '/api/users/username/luna.explorer')
		const historyId = Number(profile.headers.get('x-smkit-history-id'))
		for (let request = 0; request < 55; request++) await playground.request('GET', '/api/lists')
		const history = (await playground.json('/api/history')).body.data as { id: number }[]
		expect(history.some((entry) => entry.id === historyId)).toBe(false)
		const response = await playground.request('POST', '/api/save', {
			body: { name: 'gone', history_id: historyId }
		})
		expect(response.status).toBe(404)
	})

	it('with the path shown, a history id naming another request is a 404 and nothing is written', async () => {
		const profile = await playground.request('GET', '/api/search/users?q=%C3%A9t%C3%A9')
		const historyId = Number(profile.headers.get('x-smkit-history-id'))
		const before = await readdir(playground.savedDir)
		const other = await playground.request('POST', '/api/save', {
			body: { name: 'mixed', history_id: historyId, path: '/api/hashtags/info/sunset' }
		})
		expect(other.status).toBe(404)
		expect((await other.json()).error).toBe(
			`Not saved: History id ${historyId} is the result of GET /api/search/users?q=%C3%A9t%C3%A9, not of GET /api/hashtags/info/sunset (the playground may have restarted since): fetch it again, then save`
		)
		expect(await readdir(playground.savedDir)).toEqual(before)
		// The same request, its query as the page wrote it (unencoded) or encoded: saved.
		for (const shown of ['/api/search/users?q=été', '/api/search/users?q=%C3%A9t%C3%A9']) {
			const same = await playground.request('POST', '/api/save', {
				body: { name: 'search', history_id: historyId, path: shown }
			})
			expect(same.status).toBe(200)
		}
		const refused = await playground.request('POST', '/api/save', {
			body: { name: 'bad-path', history_id: historyId, path: 'https://elsewhere.example/api/x' }
		})
		expect(refused.status).toBe(400)
	})

	it('with the path shown, any spelling of the same request saves (token dropped, %20, + and ~ alike)', async () => {
		const search = await playground.request('GET', '/api/users/search?q=a%20b&token=abcdefabcdefabcdef')
		expect(search.status).toBe(200)
		const historyId = Number(search.headers.get('x-smkit-history-id'))
		for (const shown of [
			'/api/users/search?q=a%20b',
			'/api/users/search?q=a+b',
			'/api/users/search?q=a b',
			'/api/users/search?q=a%20b&token=other'
		]) {
			const same = await playground.request('POST', '/api/save', {
				body: { name: 'spelled', history_id: historyId, path: shown }
			})
			expect({ shown, status: same.status }).toEqual({ shown, status: 200 })
		}
		const tilde = await playground.request('GET', '/api/users/search?q=a~b&token=abcdefabcdefabcdef')
		const tildeId = Number(tilde.headers.get('x-smkit-history-id'))
		for (const shown of ['/api/users/search?q=a~b', '/api/users/search?q=a%7Eb']) {
			const same = await playground.request('POST', '/api/save', {
				body: { name: 'tilde', history_id: tildeId, path: shown }
			})
			expect({ shown, status: same.status }).toEqual({ shown, status: 200 })
		}
		// Another query is another request: still a 404.
		for (const shown of [
			'/api/users/search?q=a%20c',
			'/api/users/search?q=a%20b&limit=5',
			'/api/users/search'
		]) {
			const other = await playground.request('POST', '/api/save', {
				body: { name: 'other', history_id: historyId, path: shown }
			})
			expect({ shown, status: other.status }).toEqual({ shown, status: 404 })
		}
	})

	it('ten deletes of one saved file at once: one deletes it, the others are told it is not there', async () => {
		await playground.json('/api/users/username/luna.explorer')
		const saved = await (await post('raced')).json()
		const answers = await Promise.all(
			Array.from({ length: 10 }, () => playground.request('DELETE', `/api/saved/${saved.data.name}`))
		)
		const statuses = answers.map((answer) => answer.status).sort()
		expect(statuses).toEqual([200, ...Array(9).fill(404)])
	})

	it('cuts long names to 100 characters, never ending in a separator', () => {
		expect(sanitizeName('a'.repeat(150))).toBe('a'.repeat(100))
		expect(sanitizeName(`${'x'.repeat(99)}_y`)).toBe('x'.repeat(99))
		expect(sanitizeName('-dash-')).toBe('dash')
		expect(sanitizeName('___')).toBeUndefined()
		expect(sanitizeName('report.JSON')).toBe('report')
		expect(sanitizeName('ünïcödé name')).toBe('ünïcödé_name')
	})
})

describe('GET /api/saved, GET and DELETE /api/saved/{filename}', () => {
	it('lists saved files newest first with name, relative file, size, modified and request', async () => {
		const { status, body } = await playground.json('/api/saved')
		expect(status).toBe(200)
		expect(Value.Check(Envelope, body)).toBe(true)
		const names = body.data.map((entry: { name: string }) => entry.name)
		expect(names).toContain('Luna_profile_the_best')
		expect(names).not.toContain('escape')
		const times = body.data.map((entry: { modified: string }) => entry.modified)
		expect([...times].sort().reverse()).toEqual(times)
		const first = body.data.find((entry: { name: string }) => entry.name === 'Luna_profile_the_best')
		expect(first).toMatchObject({
			file: 'saved/Luna_profile_the_best.json',
			request: 'GET /api/users/username/luna.explorer'
		})
		expect(first.size).toBeGreaterThan(100)
	})

	it('reads a saved file with or without .json', async () => {
		for (const name of ['Luna_profile_the_best', 'Luna_profile_the_best.json']) {
			const { status, body } = await playground.json(`/api/saved/${name}`)
			expect(status).toBe(200)
			expect(body.data.request).toBe('GET /api/users/username/luna.explorer')
			expect(body.data.result.data.username).toBe('luna.explorer')
		}
	})

	it('answers 404 for a missing file and deletes an existing one once', async () => {
		expect((await playground.get('/api/saved/no_such_file')).status).toBe(404)
		const deleted = await playground.request('DELETE', '/api/saved/Luna_profile_the_best-3.json')
		expect(deleted.status).toBe(200)
		expect((await deleted.json()).data).toEqual({ deleted: 'Luna_profile_the_best-3.json' })
		expect((await playground.request('DELETE', '/api/saved/Luna_profile_the_best-3')).status).toBe(404)
		expect(await readdir(playground.savedDir)).not.toContain('Luna_profile_the_best-3.json')
	})
})

describe('path traversal', () => {
	const outsideName = () => 'outside'
	const variants = () => [
		'..%2F..%2Fetc%2Fpasswd',
		`..%2F${outsideName()}%2Fcanary.json`,
		`..%2f${outsideName()}%2fcanary.json`,
		`..%252F${outsideName()}%252Fcanary.json`,
		`..%5C${outsideName()}%5Ccanary.json`,
		`..\\${outsideName()}\\canary.json`,
		`%2e%2e%2f${outsideName()}%2fcanary.json`,
		'%2e%2e',
		'..',
		'%2Fetc%2Fpasswd',
		'C:%5CWindows%5Cwin.ini',
		'C:\\Windows\\win.ini',
		'escape.json%00.json',
		'escape%00',
		'a'.repeat(101),
		`${'a'.repeat(100)}.json.json`,
		'x'.repeat(5000),
		`%E2%80%A4%E2%80%A4%2F${outsideName()}%2Fcanary.json`,
		`%EF%BC%8E%EF%BC%8E%EF%BC%8F${outsideName()}%EF%BC%8Fcanary.json`,
		`..%E2%88%95${outsideName()}%E2%88%95canary.json`,
		`..%E2%81%84${outsideName()}%E2%81%84canary.json`,
		'..%c0%af..%c0%afetc%c0%afpasswd',
		'Luna_profile_the_best.json.',
		'Luna_profile_the_best.',
		'Luna_profile_the_best%20.json',
		'.json',
		'escape',
		'escape.json',
		'..%2Fcanary.json',
		'..%2Fcanary'
	]

	it('reads nothing outside the saved directory (at least 15 variants)', async () => {
		expect(variants().length).toBeGreaterThanOrEqual(15)
		for (const variant of variants()) {
			const response = await playground.get(`/api/saved/${variant}`)
			const text = await response.text()
			expect([400, 404]).toContain(response.status)
			expect(text).not.toContain(CANARY)
			expect(text).not.toContain('root:')
			expect(Value.Check(FailureEnvelope, JSON.parse(text))).toBe(true)
		}
	})

	it('deletes nothing outside the saved directory, nor a link that points outside', async () => {
		for (const variant of variants()) {
			const response = await playground.request('DELETE', `/api/saved/${variant}`)
			expect([400, 404, 405]).toContain(response.status)
		}
		for (const file of canaries) expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ secret: CANARY })
		expect(await readdir(playground.savedDir)).toContain('escape.json')
	})

	it('never lists the outside file and leaks no credential or absolute path', async () => {
		const { body } = await playground.json('/api/saved')
		expect(JSON.stringify(body)).not.toContain(CANARY)
		expectNoLeaks(playground)
	})
})
