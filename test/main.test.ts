/**
 * The command line as people type it (src/main.ts run by Bun, in an empty folder): `help` for a
 * word that is no command, numbers in plain decimal only, and SMKIT_* settings checked alike.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { runProcess } from './support/process'

const root = resolve(import.meta.dir, '..')
const bun = join(root, 'node_modules/.bin/bun')
const main = join(root, 'src/main.ts')
const folder = mkdtempSync(join(tmpdir(), 'smkit-main-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

/** Runs `smkit ...args` in the empty folder, without AI keys or an upstream from this environment. */
function smkit(args: string[], env: Record<string, string> = {}) {
	return runProcess([bun, main, ...args], {
		cwd: folder,
		env: { PATH: process.env.PATH ?? '', HOME: folder, NO_COLOR: '1', ...env },
		// Every command here ends on its own; a server left running is stopped, and the test fails.
		timeoutMs: 15_000
	})
}

describe('smkit help WORD', () => {
	it('answers a word that is no command as that unknown command: its message and exit code 2', async () => {
		const unknown = await smkit(['bogus'])
		const help = await smkit(['help', 'bogus'])
		expect(help.code).toBe(2)
		expect(help.stderr).toBe("smkit: unknown command 'bogus'\n\n")
		expect(help).toEqual(unknown)
		// A typo close to a command gets the suggestion.
		const typo = await smkit(['help', 'colect'])
		expect(typo.code).toBe(2)
		expect(typo.stderr).toContain("unknown command 'colect' (did you mean 'collect'?)")
	})

	it("still shows a command's help, and the general help without a word", async () => {
		const collect = await smkit(['help', 'collect'])
		expect(collect.code).toBe(0)
		expect(collect.stdout).toContain('$ smkit collect <kind> <target>')
		const all = await smkit(['help'])
		expect(all.code).toBe(0)
		expect(all.stdout).toContain('Commands:')
	})
})

describe('--version', () => {
	it('after a command prints the version as before one, instead of exiting 0 having done nothing', async () => {
		const plain = await smkit(['--version'])
		expect(plain.stdout).toStartWith('smkit/')
		for (const args of [
			['watch', 'run', '--demo', '--version'],
			['jobs', '-v']
		]) {
			const after = await smkit(args)
			expect(after.code).toBe(0)
			expect(after.stdout).toBe(plain.stdout)
		}
	})
})

describe('whole-number options', () => {
	it.each([
		[
			['collect', 'followers', 'luna.explorer', '--demo', '--limit', '0x10'],
			"--limit must be a whole number of at least 1, got '0x10'"
		],
		[
			['collect', 'followers', 'luna.explorer', '--demo', '--limit=1e3'],
			"--limit must be a whole number of at least 1, got '1e3'"
		],
		[
			['analytics', 'luna.explorer', '--demo', '--posts', '1e1'],
			"--posts must be a whole number from 1 to 200, got '1e1'"
		],
		[
			['ask', 'hello', '--demo', '--max-steps', '0x5'],
			"--max-steps must be a whole number from 1 to 100 (got '0x5')."
		],
		[['simulator', '--port', '0x2490'], "--port must be an integer from 0 to 65535, got '0x2490'"],
		[['watch', 'diff', '1', '--from', '+1'], '--from must be a snapshot id']
	])('%p is a usage error naming the option (exit 2)', async (args, message) => {
		const { code, stderr, stdout } = await smkit(args)
		expect(code).toBe(2)
		expect(stderr).toBe(`smkit: ${message}\n`)
		expect(stdout).toBe('')
	})
})

describe('SMKIT_* settings from the environment file', () => {
	it('a bad SMKIT_READ_TIMEOUT is a usage error (exit 2) as a bad SMKIT_SPEED is', async () => {
		writeFileSync(join(folder, 'timeout.env'), 'SMKIT_READ_TIMEOUT=abc\n')
		const timeout = await smkit(['playground', '--demo', '--port', '0', '--env', 'timeout.env'])
		expect(timeout.code).toBe(2)
		expect(timeout.stderr).toBe(
			"smkit: SMKIT_READ_TIMEOUT must be a whole number of seconds from 1 to 255, got 'abc'\n"
		)
		expect(timeout.stdout).not.toContain('http://')
		writeFileSync(join(folder, 'speed.env'), 'SMKIT_SPEED=warp\n')
		const speed = await smkit(['playground', '--demo', '--port', '0', '--env', 'speed.env'])
		expect(speed.code).toBe(2)
	}, 30_000)

	it('a short SMKIT_TOKEN ends the command (exit 2) instead of leaving demo mode running', async () => {
		const { code, stderr } = await smkit(['agent-web', '--demo', '--port', '0', '--env', 'none.env'], {
			SMKIT_TOKEN: 'short'
		})
		expect(code).toBe(2)
		expect(stderr).toContain('The access token must be at least 16 characters (--token or SMKIT_TOKEN)')
	}, 30_000)
})
