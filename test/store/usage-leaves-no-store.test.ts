/**
 * A usage error (exit 2) found in the settings leaves no empty store behind: `smkit collect` and
 * `smkit playground` check their proxy, speed, token and read-timeout settings before they create
 * the --db file, as the other usage errors already did.
 */
import { afterAll, beforeAll, expect, it } from 'bun:test'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledBinary, freePort } from '../support/binary'

let binary: string
let folder: string

beforeAll(async () => {
	binary = await compiledBinary()
	folder = mkdtempSync(join(tmpdir(), 'smkit-usage-store-'))
	writeFileSync(join(folder, 'speed.env'), 'SMKIT_SPEED=warp\n')
	writeFileSync(join(folder, 'timeout.env'), 'SMKIT_READ_TIMEOUT=abc\n')
	writeFileSync(join(folder, 'token.env'), 'SMKIT_TOKEN=short\n')
})
afterAll(() => {
	rmSync(folder, { recursive: true, force: true })
})

const playground = () => ['playground', '--port', String(freePort())]

it.each([
	[['collect', 'posts', 'luna.explorer', '--proxy-mode', 'sticky'], '--proxy-mode sticky needs proxies'],
	[['collect', 'posts', 'luna.explorer', '--env', 'speed.env'], 'SMKIT_SPEED'],
	[[...playground(), '--env', 'timeout.env'], 'SMKIT_READ_TIMEOUT'],
	[[...playground(), '--env', 'token.env'], 'at least 16 characters']
])('smkit %p exits 2 and creates no store', async (args, said) => {
	const db = join(folder, `${args[0]}-${args.at(-1)}.db`)
	const child = Bun.spawn([binary, ...args, '--demo', '--db', db], {
		cwd: folder,
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const [code, errors] = await Promise.all([child.exited, new Response(child.stderr).text()])
	expect(errors).toContain(said)
	expect(code).toBe(2)
	expect(existsSync(db)).toBe(false)
})
