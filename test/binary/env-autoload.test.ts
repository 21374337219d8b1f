/**
 * Planted configuration in the working directory: only the file named by `--env` and the real
 * process environment configure the binary. A `.env`, `.env.local` or `bunfig.toml` an attacker
 * drops into the folder the user starts smkit from must not redirect the user's cookies to another
 * upstream, set an access token the attacker knows, or run code.
 */
import { afterAll, beforeAll, describe, expect, it } from 'bun:test'
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { compiledBinary, freePort, waitForOk } from '../support/binary'

let folder: string
let binary: string
/** Requests each fake upstream received (path and cookie header). */
const received = { legitimate: [] as string[], attacker: [] as string[] }
let legitimate: ReturnType<typeof Bun.serve>
let attacker: ReturnType<typeof Bun.serve>

/** A stand-in upstream that records what reaches it and answers an empty JSON object. */
function recordingUpstream(log: string[]) {
	return Bun.serve({
		port: 0,
		hostname: '127.0.0.1',
		fetch(request) {
			log.push(`${new URL(request.url).pathname} ${request.headers.get('cookie') ?? ''}`)
			return Response.json({ status: 'ok' })
		}
	})
}

beforeAll(async () => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-planted-'))
	binary = join(folder, 'smkit')
	copyFileSync(await compiledBinary(), binary)
	legitimate = recordingUpstream(received.legitimate)
	attacker = recordingUpstream(received.attacker)
	// The user's own settings, named by --env.
	writeFileSync(
		join(folder, 'settings.env'),
		[
			'SESSION_ID=user-session-value-1234',
			'CSRF_TOKEN=user-csrf-value',
			'DS_USER_ID=1000000001',
			`SMKIT_UPSTREAM_URL=http://127.0.0.1:${legitimate.port}`
		].join('\n')
	)
	// What the attacker planted next to it.
	const planted = [
		`SMKIT_UPSTREAM_URL=http://127.0.0.1:${attacker.port}`,
		`OPENAI_BASE_URL=http://127.0.0.1:${attacker.port}/v1`,
		'SMKIT_TOKEN=attacker-knows-this-token'
	].join('\n')
	for (const name of ['.env', '.env.local', '.env.production', '.env.development']) {
		writeFileSync(join(folder, name), planted)
	}
	writeFileSync(join(folder, 'bunfig.toml'), 'preload = ["./planted.ts"]\n')
	writeFileSync(
		join(folder, 'planted.ts'),
		`require('node:fs').writeFileSync('ran.txt', 'planted code ran')\n`
	)
}, 120_000)

afterAll(() => {
	legitimate?.stop(true)
	attacker?.stop(true)
	rmSync(folder, { recursive: true, force: true })
})

describe('smkit playground --env settings.env beside planted .env files', () => {
	it('uses only settings.env and the process environment', async () => {
		const port = freePort()
		const base = `http://127.0.0.1:${port}`
		const child = Bun.spawn([binary, 'playground', '--env', 'settings.env', '--port', String(port)], {
			cwd: folder,
			// No inherited SMKIT_* or key variables: the test controls the whole environment.
			env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: folder },
			stdout: 'pipe',
			stderr: 'pipe'
		})
		try {
			// A planted SMKIT_TOKEN would make even /api/status demand the attacker's token.
			expect(await waitForOk(`${base}/api/status`)).toBe(true)
			await fetch(`${base}/api/account/info`)
			expect(received.attacker).toEqual([])
			expect(received.legitimate.length).toBeGreaterThan(0)
			expect(received.legitimate.join('\n')).toContain('sessionid=user-session-value-1234')
			expect(existsSync(join(folder, 'ran.txt'))).toBe(false)
		} finally {
			child.kill('SIGTERM')
			await child.exited
		}
	}, 60_000)
})

describe('bun test with the repository bunfig.toml', () => {
	it('does not load a .env from the working directory', async () => {
		const probe = mkdtempSync(join(tmpdir(), 'smkit-bunfig-'))
		try {
			copyFileSync(join(import.meta.dir, '../../bunfig.toml'), join(probe, 'bunfig.toml'))
			writeFileSync(join(probe, '.env'), 'SMKIT_PLANTED_PROBE=loaded\n')
			writeFileSync(
				join(probe, 'probe.test.ts'),
				`import { test } from 'bun:test'\ntest('probe', () => console.log('probe:', process.env.SMKIT_PLANTED_PROBE ?? 'absent'))\n`
			)
			const child = Bun.spawn([process.execPath, 'test', './probe.test.ts'], {
				cwd: probe,
				env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: probe },
				stdout: 'pipe',
				stderr: 'pipe'
			})
			const [code, output] = await Promise.all([child.exited, new Response(child.stdout).text()])
			expect(code).toBe(0)
			expect(output).toContain('probe: absent')
		} finally {
			rmSync(probe, { recursive: true, force: true })
		}
	}, 60_000)
})
