/**
 * `smkit login` and `smkit logout`. Login reads a browser's cookies (`--cookies FILE`, or standard
 * input: a pasted Cookie header, cookies.txt or JSON export), keeps instagram.com's, checks the
 * session with Instagram and writes SESSION_ID, CSRF_TOKEN, DS_USER_ID (and the optional cookies
 * present) to the environment file, created with mode 0600. Values are never printed. Logout
 * removes the session's variables from the file.
 */
import { readFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { Type } from '@sinclair/typebox'
import { terminalLine, UsageError } from '../cli-error'
import { CookieImportError, looksLikePlainPath, SESSION_VARIABLES } from '../client/cookies'
import { loadEnvFile, mergeEnv } from '../client/env'
import { envFileProblem, removeSessionVariables } from '../client/env-file'
import { fileReadReason } from '../client/file-write-error'
import { type ParsedOptions, parseOptions } from '../server/options'
import { resolveUpstream, upstreamOptions } from '../server/upstream-options'
import { type CheckedSession, checkImportedSession, refusalMessage, storeSession } from './connect'

const envPathOption = Type.String({
	minLength: 1,
	default: '.env',
	flag: '--env <path>',
	description: 'Environment file the session is written to',
	error: '--env must be a file path'
})

/** The options of `smkit login`. */
export const loginOptions = {
	cookies: Type.Optional(
		Type.String({
			minLength: 1,
			flag: '--cookies <file>',
			description: 'cookies.txt, JSON cookie export or Cookie header in a file (- or none: standard input)'
		})
	),
	envPath: envPathOption,
	skipCheck: Type.Boolean({
		default: false,
		flag: '--skip-check',
		description: 'Save the session without asking Instagram whether it works'
	}),
	...upstreamOptions
}

/** The options of `smkit logout`. */
export const logoutOptions = { envPath: envPathOption }

/**
 * `--env` names a file, in a folder that exists: checked before anything is read or asked, so a
 * mistake answers with the path given instead of EISDIR, or ENOENT naming a temporary file.
 */
function checkEnvPath(path: string): void {
	const problem = envFileProblem(path)
	if (problem === 'folder')
		throw new UsageError(`--env: '${path}' is a folder; name the environment file in it (e.g. ${path}/.env)`)
	if (problem === 'missing-folder')
		throw new UsageError(`--env: there is no folder '${dirname(path)}' for '${path}'`)
}

/**
 * Why `--cookies FILE` cannot be read. The argument is shown only when it looks like a plain path
 * (`looksLikePlainPath`); anything else (a Cookie header, a JSON export, a cookies.txt line given in
 * place of the file) is never echoed: the message says it looks like cookies and how to give them
 * (standard input or a file), where the shell's history and the process list do not keep them.
 */
function unreadableCookies(file: string, error: unknown): UsageError {
	if (!looksLikePlainPath(file))
		return new UsageError(
			'--cookies takes a file, and what was given looks like cookies pasted in place of a file name (not shown here): give them through standard input (--cookies -, then paste them) or save them in a file and name the file'
		)
	return new UsageError(`--cookies: cannot read '${file}': ${fileReadReason(error)}`)
}

/** Reads the cookies from the file, or from standard input (with a prompt on a terminal). */
async function readCookies(file: string | undefined): Promise<string> {
	if (file && file !== '-') {
		try {
			return readFileSync(file, 'utf8')
		} catch (error) {
			throw unreadableCookies(file, error)
		}
	}
	if (process.stdin.isTTY)
		console.error(
			'Paste the Cookie header of a request to instagram.com (or a cookies.txt / JSON export), then press Ctrl-D:'
		)
	return await Bun.stdin.text()
}

/** How long `smkit login` waits for Instagram's answer to the session check, retries included. */
export const LOGIN_CHECK_TIMEOUT_MS = 30_000

/**
 * Reads the cookies and checks the session within `timeoutMs`. A check that fails says why,
 * that nothing was saved and what to do; one that ran out of time says so, not a bare "timed out".
 */
export async function checkCookies(
	text: string,
	upstream: Parameters<typeof checkImportedSession>[1],
	skipCheck: boolean,
	timeoutMs = LOGIN_CHECK_TIMEOUT_MS
): Promise<CheckedSession> {
	const deadline = AbortSignal.timeout(timeoutMs)
	return await checkImportedSession(text, upstream, { skipCheck, signal: deadline }).catch(
		(error: unknown) => {
			if (error instanceof CookieImportError) throw error
			const suspects = [
				'the network connection',
				...(upstream?.proxies ? ['the proxy'] : []),
				...(upstream?.baseURL ? ['SMKIT_UPSTREAM_URL'] : [])
			]
			const reason = deadline.aborted
				? `Instagram did not answer within ${timeoutMs / 1000} s: check ${suspects.join(' and ')}`
				: error instanceof Error
					? error.message
					: String(error)
			throw new Error(
				`Could not check the session with Instagram: ${reason}${/[.?!]$/.test(reason) ? '' : '.'} Nothing was saved; retry, or use --skip-check to save it unchecked`
			)
		}
	)
}

/** `smkit login`: import, check, store; exit 1 when Instagram refuses or cannot be asked. */
export async function runLogin(rawOptions: Record<string, unknown> = {}): Promise<void> {
	const options: ParsedOptions<typeof loginOptions> = parseOptions(loginOptions, rawOptions)
	checkEnvPath(options.envPath)
	const env = mergeEnv(loadEnvFile(options.envPath))
	const upstream = resolveUpstream(options, env)
	for (const warning of upstream.warnings) console.error(warning)
	// The proxy (credentials hidden) the session check goes through, as the servers say at start;
	// with --skip-check nothing is sent, so nothing goes through it.
	if (!options.skipCheck) for (const line of upstream.lines) console.log(line)
	const text = await readCookies(options.cookies)
	const session = await checkCookies(
		text,
		{ baseURL: env.SMKIT_UPSTREAM_URL?.trim() || undefined, proxies: upstream.clientOptions.proxies },
		options.skipCheck
	)
	const { imported, report } = session
	const others = imported.ignoredCookies
		? ` (${imported.ignoredCookies} cookies of other sites left out)`
		: ''
	const source = { netscape: 'the cookies.txt file', json: 'the JSON export', header: 'the Cookie header' }[
		imported.format
	]
	console.log(`Read ${imported.instagramCookies} instagram.com cookies from ${source}${others}`)
	const refusal = refusalMessage(report)
	if (refusal) throw new Error(`${refusal}. Nothing was saved`)
	const stored = await storeSession(options.envPath, session)
	const who = report.username
		? `Logged in as @${terminalLine(report.username)}`
		: 'Session saved without a check'
	console.log(`${who}: ${stored.join(', ')} written to ${options.envPath} (mode 0600)`)
	const shadowed = stored.filter((name) => process.env[name])
	if (shadowed.length > 0)
		console.error(
			`Note: ${shadowed.join(', ')} also set in the process environment, which wins over the file`
		)
}

/** `smkit logout`: removes the session's variables from the environment file. */
export async function runLogout(rawOptions: Record<string, unknown> = {}): Promise<void> {
	const options = parseOptions(logoutOptions, rawOptions)
	checkEnvPath(options.envPath)
	const removed = await removeSessionVariables(options.envPath)
	if (removed.length === 0) console.log(`No Instagram session in ${options.envPath}`)
	else {
		console.log(`Removed ${removed.join(', ')} from ${options.envPath}`)
		console.log('The browser session itself stays logged in: log out on instagram.com to end it there')
	}
	// The process environment wins over the file: smkit would still find a session there.
	const shadowing = SESSION_VARIABLES.filter((name) => process.env[name])
	if (shadowing.length > 0)
		console.error(
			`Note: ${shadowing.join(', ')} still set in the process environment, which wins over the file: unset ${shadowing.length > 1 ? 'them' : 'it'} to log out`
		)
}
