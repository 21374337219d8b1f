/**
 * Why a server could not listen, in plain words, for every server command (playground, agent-web,
 * mcp --http, simulator): Bun's own error names a system call and an errno (`EINVAL: invalid
 * argument, listen` for a host that does not resolve), which says nothing to the person who typed
 * `--host`.
 */
import { isIP } from 'node:net'

/** The error code of a failed system call (`EADDRINUSE`), if it has one. */
function codeOf(error: unknown): string | undefined {
	const code = (error as { code?: unknown } | null)?.code
	return typeof code === 'string' ? code : undefined
}

/** Whether `error` is the system's refusal to listen (Bun's errors name the `listen` call). */
export function isListenFailure(error: unknown): boolean {
	return (error as { syscall?: unknown } | null)?.syscall === 'listen' || isPortInUse(error)
}

/** Whether listening failed because something already listens on the port. */
export function isPortInUse(error: unknown): boolean {
	return codeOf(error) === 'EADDRINUSE' || /in use|EADDRINUSE/i.test(String(error))
}

/**
 * The error to report when listening on `host:port` failed with `error`: `cannot listen on
 * HOST:PORT: REASON`. `inUseHint` says what to do about a port in use (it differs between the
 * servers and the simulator).
 */
export function listenError(host: string, port: number, error: unknown, inUseHint: string): Error {
	const code = codeOf(error)
	let reason: string
	if (isPortInUse(error)) reason = `the port is in use (${inUseHint})`
	// EINVAL: a name that does not resolve; EADDRNOTAVAIL: an address of another machine.
	else if (code === 'EINVAL' || code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND')
		reason = `${host} ${isIP(host.replace(/^\[|\]$/g, '')) ? 'is not' : 'does not resolve to'} an address of this machine (give --host one of its addresses, such as 127.0.0.1, or 0.0.0.0 for all of them)`
	else if (code === 'EACCES' || code === 'EPERM')
		reason =
			port > 0 && port < 1024
				? 'permission denied: ports below 1024 need administrator rights (choose another port with --port)'
				: 'permission denied'
	else reason = error instanceof Error ? error.message : String(error)
	return new Error(`cannot listen on ${host}:${port}: ${reason}`, { cause: error })
}
