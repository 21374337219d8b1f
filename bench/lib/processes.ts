/**
 * Child processes of the benchmarks: the compiled `smkit` binary (built first when missing or older
 * than its sources), servers on free loopback ports, readiness polling and resident memory.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import type { Subprocess } from 'bun'

/** The repository root (bench/lib/ is two levels below it). */
export const ROOT = path.resolve(import.meta.dir, '../..')
/** The compiled binary `npm run build` writes. */
export const BINARY = path.join(ROOT, 'smkit')

/** Newest modification time (ms) of the files the binary is built from. */
function newestSourceTime(): number {
	let newest = 0
	const visit = (entry: string) => {
		const stats = statSync(entry, { throwIfNoEntry: false })
		if (!stats) return
		if (stats.isDirectory()) {
			for (const child of readdirSync(entry)) visit(path.join(entry, child))
		} else {
			newest = Math.max(newest, stats.mtimeMs)
		}
	}
	for (const entry of ['src', 'assets', 'package.json', 'package-lock.json']) visit(path.join(ROOT, entry))
	return newest
}

const running = new Set<Subprocess>()

/** Spawns a child the bench tracks, so an interrupted bench can stop every server it started. */
export function spawnTracked(
	command: string[],
	options: { cwd: string; env: Record<string, string> }
): Subprocess {
	const child = Bun.spawn(command, { ...options, stdout: 'ignore', stderr: 'inherit' })
	running.add(child)
	void child.exited.then(() => running.delete(child))
	return child
}

/** Kills every tracked child still running (on Ctrl-C). */
export function killTrackedChildren(): void {
	for (const child of running) child.kill('SIGKILL')
}

/** Builds `./smkit` with `npm run build` unless it exists and is newer than every source file. */
export async function ensureBinary(log: (line: string) => void): Promise<'fresh' | 'built'> {
	const binary = statSync(BINARY, { throwIfNoEntry: false })
	if (binary && binary.mtimeMs >= newestSourceTime()) return 'fresh'
	log(
		binary ? 'smkit binary is older than its sources: npm run build' : 'smkit binary missing: npm run build'
	)
	const build = Bun.spawn(['npm', 'run', 'build'], { cwd: ROOT, stdout: 'pipe', stderr: 'pipe' })
	const [code, output, errors] = await Promise.all([
		build.exited,
		new Response(build.stdout).text(),
		new Response(build.stderr).text()
	])
	if (code !== 0) throw new Error(`npm run build failed (exit ${code}):\n${output}\n${errors}`)
	return 'built'
}

/** A free loopback port (asked of the kernel, then released for the child to take). */
export function freePort(): number {
	const probe = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response() })
	const port = probe.port as number
	probe.stop(true)
	return port
}

/** Resident memory of a process in MiB, from /proc/<pid>/status (VmRSS). */
export function residentMiB(pid: number): number {
	const status = readFileSync(`/proc/${pid}/status`, 'utf8')
	const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status)
	if (!match) throw new Error(`no VmRSS for process ${pid}`)
	return Number(match[1]) / 1024
}

/** A server running in its own process. */
export interface ServerProcess {
	/** Origin, e.g. `http://127.0.0.1:40123`. */
	url: string
	pid: number
	/** Resident memory now, MiB. */
	rss(): number
	stop(): Promise<void>
}

/** Polls `url` until it answers 200, as tightly as the event loop allows; returns when it did. */
export async function waitForOk(url: string, child: Subprocess, timeoutMs = 10_000): Promise<number> {
	const deadline = performance.now() + timeoutMs
	while (performance.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`${url}: the process exited with ${child.exitCode}`)
		try {
			const response = await fetch(url)
			await response.arrayBuffer()
			if (response.status === 200) return performance.now()
		} catch {
			// Not listening yet: connection refused comes back at once, so try again.
		}
	}
	throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`)
}

/** Starts `command` (which must listen on `port`) and waits until `readyPath` answers 200. */
export async function startServerProcess(
	command: string[],
	port: number,
	readyPath: string,
	options: { cwd?: string; env?: Record<string, string> } = {}
): Promise<ServerProcess> {
	const child = spawnTracked(command, { cwd: options.cwd ?? ROOT, env: { ...isolatedEnv(), ...options.env } })
	const url = `http://127.0.0.1:${port}`
	try {
		await waitForOk(url + readyPath, child)
	} catch (error) {
		child.kill('SIGKILL')
		throw error
	}
	return {
		url,
		pid: child.pid,
		rss: () => residentMiB(child.pid),
		async stop() {
			child.kill('SIGTERM')
			const exited = await Promise.race([child.exited.then(() => true), Bun.sleep(3000).then(() => false)])
			if (!exited) child.kill('SIGKILL')
			await child.exited
		}
	}
}

/** Variables a child server must not inherit: upstream override, token, AI provider settings. */
const inheritedOut = /^(SMKIT_UPSTREAM_URL|SMKIT_TOKEN|OPENAI_BASE_URL|OLLAMA_HOST|[A-Z]+_API_KEY)$/

/** The bench's environment minus what would change how a child server behaves. */
export function isolatedEnv(): Record<string, string> {
	const env: Record<string, string> = {}
	for (const [key, value] of Object.entries(process.env)) {
		if (value !== undefined && !inheritedOut.test(key)) env[key] = value
	}
	return env
}

/**
 * Command line of the playground on `port`: demo unless told otherwise, no env file, saved files and
 * the store in `savedDir` (made here: a --db's folder must exist).
 */
export function playgroundCommand(
	port: number,
	savedDir: string,
	options: { demo?: boolean } = {}
): string[] {
	mkdirSync(savedDir, { recursive: true })
	return [
		BINARY,
		'playground',
		...(options.demo === false ? [] : ['--demo']),
		'--port',
		String(port),
		'--env',
		path.join(savedDir, 'none.env'),
		'--saved-dir',
		savedDir,
		'--db',
		path.join(savedDir, 'smkit.db')
	]
}

/**
 * A simulator and a demo playground against it, each in its own process; both are pushed onto
 * `servers` as soon as they answer, so the caller stops whatever did start.
 */
export async function startSimulatorAndPlayground(
	servers: ServerProcess[],
	options: { cwd: string; savedDir: string; simulatorEnv?: Record<string, string> }
): Promise<{ simulator: ServerProcess; playground: ServerProcess }> {
	const simulatorPort = freePort()
	const simulator = await startServerProcess(
		[BINARY, 'simulator', '--port', String(simulatorPort)],
		simulatorPort,
		'/__sim/health',
		{ cwd: options.cwd, env: options.simulatorEnv }
	)
	servers.push(simulator)
	const playgroundPort = freePort()
	const playground = await startServerProcess(
		playgroundCommand(playgroundPort, options.savedDir),
		playgroundPort,
		'/api/status',
		{ cwd: options.cwd, env: { SMKIT_UPSTREAM_URL: simulator.url } }
	)
	servers.push(playground)
	return { simulator, playground }
}

/** Compiles a reference server under `bench/servers/` (`bare`, `minimal`) to a binary in `directory`. */
export async function buildReferenceServer(name: 'bare' | 'minimal', directory: string): Promise<string> {
	const outfile = path.join(directory, `${name}-server`)
	const build = Bun.spawn(
		[
			process.execPath,
			'build',
			'--compile',
			'--minify',
			path.join(ROOT, `bench/servers/${name}.ts`),
			'--outfile',
			outfile
		],
		{ cwd: ROOT, stdout: 'pipe', stderr: 'pipe' }
	)
	const [code, errors] = await Promise.all([build.exited, new Response(build.stderr).text()])
	if (code !== 0) throw new Error(`building the ${name} server failed (exit ${code}): ${errors}`)
	return outfile
}
