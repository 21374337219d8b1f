/**
 * Writing into a folder the user may not write (run as a user without that right: root bypasses
 * permissions, so a root test run becomes `nobody`): `smkit login` and `smkit jobs export` say
 * which file could not be written and why, never the temporary file they write it through.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { runProcess } from '../support/process'

const root = resolve(import.meta.dir, '../..')
const bun = realpathSync(join(root, 'node_modules/.bin/bun'))
const main = join(root, 'src/main.ts')
const setpriv = Bun.which('setpriv')
const isRoot = process.getuid?.() === 0
/** Whether another user can reach `path`: every folder on its way open to others (o+x). */
function othersReach(path: string): boolean {
	for (let at = path; at !== dirname(at); at = dirname(at))
		if ((statSync(at).mode & 0o001) === 0) return false
	return true
}

/** The words that run a command as a user without root's rights, or undefined where none can. */
const unprivileged = !isRoot
	? []
	: setpriv && othersReach(dirname(main)) && othersReach(dirname(bun))
		? [setpriv, '--reuid=65534', '--regid=65534', '--clear-groups']
		: undefined

let folder: string
beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-read-only-'))
	// `ro`: readable, not writable by the user running smkit; `rw`: the store and the user's home.
	mkdirSync(join(folder, 'ro'))
	mkdirSync(join(folder, 'rw'))
	chmodSync(folder, 0o755)
	chmodSync(join(folder, 'ro'), isRoot ? 0o755 : 0o555)
	chmodSync(join(folder, 'rw'), 0o777)
})
afterAll(() => {
	chmodSync(join(folder, 'ro'), 0o755)
	rmSync(folder, { recursive: true, force: true })
})

/** Runs smkit in `cwd` as the unprivileged user. */
function smkit(cwd: string, args: string[], stdin?: string) {
	return runProcess([...(unprivileged ?? []), bun, main, ...args], {
		cwd,
		env: { PATH: process.env.PATH ?? '', HOME: join(folder, 'rw'), NO_COLOR: '1' },
		stdin
	})
}

test.skipIf(unprivileged === undefined)(
	'login in a folder that cannot be written names .env and the folder',
	async () => {
		const cookies = 'sessionid=1%3Aabc%3A2; csrftoken=token; ds_user_id=1'
		const { code, stderr } = await smkit(
			join(folder, 'ro'),
			['login', '--cookies', '-', '--skip-check'],
			cookies
		)
		expect(code).toBe(1)
		expect(stderr).toBe('smkit: cannot write .env: the folder . is not writable (permission denied)\n')
	},
	30_000
)

test.skipIf(unprivileged === undefined)(
	'jobs export into a folder that cannot be written names the file and the folder',
	async () => {
		const rw = join(folder, 'rw')
		const collected = await smkit(rw, [
			'collect',
			'followers',
			'luna.explorer',
			'--demo',
			'--limit',
			'3',
			'--db',
			'jobs.db',
			'--out',
			'/dev/null'
		])
		expect(collected.code).toBe(0)
		const { code, stderr } = await smkit(rw, [
			'jobs',
			'export',
			'1',
			'--db',
			'jobs.db',
			'--out',
			'../ro/x.csv'
		])
		expect(code).toBe(1)
		expect(stderr).toBe(
			'smkit: cannot write ../ro/x.csv: the folder ../ro is not writable (permission denied)\n'
		)
	},
	30_000
)

test.skipIf(unprivileged === undefined)(
	'collect into a folder that cannot be written says so before it makes a job',
	async () => {
		const rw = join(folder, 'rw')
		const args = ['followers', 'luna.explorer', '--demo', '--limit', '3', '--db', 'out.db']
		const { code, stderr } = await smkit(rw, ['collect', ...args, '--out', '../ro/x.jsonl'])
		expect(code).toBe(1)
		expect(stderr).toBe(
			'smkit: cannot write ../ro/x.jsonl: the folder ../ro is not writable (permission denied)\n'
		)
		// No job was made that a rerun would continue and fail the same way.
		expect((await smkit(rw, ['jobs', '--db', 'out.db', '--json'])).stdout).toBe('[]\n')
	},
	30_000
)
