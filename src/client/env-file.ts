/**
 * Writing the session into the environment file (`smkit login`, the playground's Connect account)
 * and removing it (`smkit logout`). The file holds secrets, so it is written to a temporary file
 * created with mode 0600 in the same folder and renamed over the old one: the file is never
 * readable by others, not even for a moment, and a crash leaves the old file whole. Other lines
 * (comments, AI keys, settings) are kept as they were.
 */
import { existsSync, lstatSync, readFileSync, readlinkSync, realpathSync, statSync } from 'node:fs'
import { open, rename, rm } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import { SESSION_VARIABLES } from './cookies'
import { fileWriteError } from './file-write-error'

/** Why no environment file can be written at `path`: it is a folder, or its folder does not exist. */
export function envFileProblem(path: string): 'folder' | 'missing-folder' | undefined {
	if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return 'folder'
	if (!statSync(dirname(path), { throwIfNoEntry: false })?.isDirectory()) return 'missing-folder'
	return undefined
}

/** The variable a line defines (`KEY=`, `export KEY=`), or undefined for comments and blank lines. */
function definedName(line: string): string | undefined {
	return /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=/.exec(line)?.[1]
}

/** `KEY=value`, single-quoted unless the value is plain (parseEnv reads single quotes verbatim). */
function assignment(name: string, value: string): string {
	if (/[\r\n']/.test(value)) throw new Error(`${name} cannot be written to an environment file`)
	return /^[\w%.:+/=-]+$/.test(value) ? `${name}=${value}` : `${name}='${value}'`
}

/** Symbolic links followed at most, as the system does (ELOOP past it). */
const MAX_LINKS = 40

/**
 * The real file behind `path`: a symlinked .env is written where it points, also when the file it
 * names does not exist yet (a dangling link, `.env -> secrets/app.env`: that file is created, mode
 * 0600, and the link stays); `path` itself when it is no link. A loop of links cannot be written.
 */
function targetOf(path: string): string {
	if (existsSync(path)) return realpathSync(path)
	let current = path
	for (let links = 0; links <= MAX_LINKS; links++) {
		if (!lstatSync(current, { throwIfNoEntry: false })?.isSymbolicLink()) return current
		current = resolve(dirname(current), readlinkSync(current))
	}
	throw fileWriteError(path, Object.assign(new Error('too many levels of symbolic links'), { code: 'ELOOP' }))
}

/**
 * Writes `text` to `path` through a 0600 temporary file in the same folder, then renames it over
 * `path`. A failure names `shown` (the file as the person gave it) and why, never the temporary file.
 */
async function writePrivately(path: string, text: string, shown: string): Promise<void> {
	const temporary = join(
		dirname(path),
		`.${basename(path)}.${Buffer.from(crypto.getRandomValues(new Uint8Array(6))).toString('hex')}.tmp`
	)
	let created = false
	try {
		const handle = await open(temporary, 'wx', 0o600)
		created = true
		try {
			await handle.writeFile(text, 'utf8')
			await handle.chmod(0o600)
			await handle.sync()
		} finally {
			await handle.close()
		}
		await rename(temporary, path)
	} catch (error) {
		// A full disk leaves part of the temporary file written (one not created here is not ours).
		if (created) await rm(temporary, { force: true })
		throw fileWriteError(shown, error, { folder: path === shown ? undefined : dirname(path) })
	}
}

/**
 * Sets `variables` in the environment file at `path` (created when missing), replacing every
 * earlier definition of a session variable: the session's variables that `variables` does not
 * name are removed, so an old MID never mixes with a new session. Resolves to the names written.
 */
export async function storeSessionVariables(
	path: string,
	variables: Record<string, string>
): Promise<string[]> {
	const target = targetOf(path)
	const lines = existsSync(target) ? readFileSync(target, 'utf8').replace(/\r\n/g, '\n').split('\n') : []
	if (lines.at(-1) === '') lines.pop()
	const session = new Set<string>(SESSION_VARIABLES)
	const pending = new Map(Object.entries(variables))
	const kept: string[] = []
	for (const line of lines) {
		const name = definedName(line)
		if (name === undefined || !session.has(name)) {
			kept.push(line)
			continue
		}
		// The first definition of a variable being written keeps its place; others are dropped.
		const value = pending.get(name)
		if (value !== undefined) {
			kept.push(assignment(name, value))
			pending.delete(name)
		}
	}
	for (const [name, value] of pending) kept.push(assignment(name, value))
	await writePrivately(target, `${kept.join('\n')}\n`, path)
	return Object.keys(variables)
}

/** Removes every session variable from the environment file; resolves to the names that were there. */
export async function removeSessionVariables(path: string): Promise<string[]> {
	const target = targetOf(path)
	if (!existsSync(target)) return []
	const lines = readFileSync(target, 'utf8').replace(/\r\n/g, '\n').split('\n')
	const session = new Set<string>(SESSION_VARIABLES)
	const removed = new Set<string>()
	const kept = lines.filter((line) => {
		const name = definedName(line)
		if (name === undefined || !session.has(name)) return true
		removed.add(name)
		return false
	})
	if (removed.size > 0) await writePrivately(target, kept.join('\n'), path)
	return [...removed]
}
