/**
 * `smkit watch add` says bad usage before it opens the --db, so a usage error (exit 2) leaves no
 * empty store behind: the upstream settings (a wrong SMKIT_SPEED, `--proxy-mode` without proxies)
 * as `collect` and `playground` check them, and the target and interval of the watch.
 */
import { afterAll, beforeAll, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledBinary } from '../support/binary'

let binary: string
let folder: string

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-watch-usage-store-'))
	writeFileSync(join(folder, 'speed.env'), 'SMKIT_SPEED=warp\n')
})
afterAll(() => {
	rmSync(folder, { recursive: true, force: true })
})

it.each([
	[
		'speed-file',
		['add', 'luna.explorer', '--env', 'speed.env'],
		{},
		"SMKIT_SPEED must be safe, normal, fast or unlimited, got 'warp'"
	],
	['speed-process', ['add', 'luna.explorer', '--env', 'none.env'], { SMKIT_SPEED: 'bogus' }, 'SMKIT_SPEED'],
	['proxy-mode', ['add', 'luna.explorer', '--proxy-mode', 'sticky'], {}, '--proxy-mode sticky needs proxies'],
	['every', ['add', 'luna.explorer', '--every', '10d'], {}, '--every'],
	['no-target', ['add'], {}, 'watch add takes one TARGET']
])('smkit watch %s exits 2 and creates no store', async (name, args, variables, said) => {
	const db = join(folder, `${name}.db`)
	const child = Bun.spawn([binary, 'watch', ...args, '--demo', '--db', db], {
		cwd: folder,
		env: { ...process.env, ...variables },
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const [code, errors] = await Promise.all([child.exited, new Response(child.stderr).text()])
	expect(errors).toContain(said)
	expect(code).toBe(2)
	expect(existsSync(db)).toBe(false)
})
