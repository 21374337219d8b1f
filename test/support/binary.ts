/**
 * The compiled `smkit` binary for tests: built once per test run into a temporary folder with the
 * exact flags of `npm run build`, so tests see what users get (minification included) without
 * racing a developer's own `./smkit`. The folder is named after the test process, and removed by
 * the next run once that process has ended (`bun test` runs no exit handler).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import packageJson from '../../package.json'

const ROOT = resolve(import.meta.dir, '../..')
let built: Promise<string> | undefined
const FOLDER_PREFIX = 'smkit-bin-'

/** Whether process `pid` is alive (signal 0 checks without sending anything). */
function alive(pid: number): boolean {
	try {
		process.kill(pid, 0)
		return true
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM'
	}
}

/** Removes the build folders of test runs that have ended: 130 MB each, they had filled the disk. */
function removeFoldersOfEndedRuns(): void {
	for (const name of readdirSync(tmpdir())) {
		const pid = Number(/^smkit-bin-(\d+)-/.exec(name)?.[1])
		if (pid > 0 && pid !== process.pid && !alive(pid))
			rmSync(join(tmpdir(), name), { recursive: true, force: true })
	}
}

/**
 * The build command of package.json (its `bun build`, without the step that moves the binary out of
 * dist/) with its output redirected to `outfile`; the source maps land beside it.
 */
function buildArguments(outfile: string): string[] {
	const words = packageJson.scripts.build.split('&&')[0].trim().split(/\s+/)
	if (words[0] !== 'bun') throw new Error(`unexpected build script: ${packageJson.scripts.build}`)
	const at = words.indexOf('--outfile')
	if (at < 0) throw new Error('the build script names no --outfile')
	words[at + 1] = outfile
	return [join(ROOT, 'node_modules/.bin/bun'), ...words.slice(1)]
}

/** Path of a freshly compiled binary (compiled on first use, then reused by every test file). */
export function compiledBinary(): Promise<string> {
	built ??= (async () => {
		removeFoldersOfEndedRuns()
		const outfile = join(mkdtempSync(join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`)), 'smkit')
		const build = Bun.spawn(buildArguments(outfile), { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
		const [code, errors] = await Promise.all([build.exited, new Response(build.stderr).text()])
		if (code !== 0) throw new Error(`bun build --compile failed (exit ${code}):\n${errors}`)
		return outfile
	})()
	return built
}

/** A free loopback port (asks the OS, then releases it). */
export function freePort(): number {
	const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
	const port = probe.port as number
	probe.stop(true)
	return port
}

/** Polls `url` until it answers 200 or `timeoutMs` passes; resolves to whether it did. */
export async function waitForOk(url: string, timeoutMs = 15_000): Promise<boolean> {
	const until = Date.now() + timeoutMs
	while (Date.now() < until) {
		try {
			if ((await fetch(url)).status === 200) return true
		} catch {
			// Not listening yet.
		}
		await Bun.sleep(50)
	}
	return false
}
