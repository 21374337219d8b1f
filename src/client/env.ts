/**
 * Configuration from the environment file (docs/architecture.md, "Configuration and credentials"). The
 * file is parsed into a plain
 * object without touching `process.env`; variables already set in the process environment win;
 * a missing file is not an error.
 */
import { existsSync, readFileSync } from 'node:fs'
import { type ClientOptions, type Credentials, InstagramClient } from './client'
import { fileReadReason } from './file-write-error'

/** Parses `.env` text: `KEY=value`, `export KEY=value`, comments, single/double quotes, `\n` in double quotes. */
export function parseEnv(text: string): Record<string, string> {
	const result: Record<string, string> = {}
	for (const rawLine of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
		const line = rawLine.trim()
		if (!line || line.startsWith('#')) continue
		const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.-]*)\s*=\s*(.*)$/.exec(line)
		if (!match) continue
		const [, key = '', rawValue = ''] = match
		let value = rawValue
		const quote = value[0]
		if ((quote === '"' || quote === "'") && value.indexOf(quote, 1) > 0) {
			value = value.slice(1, value.indexOf(quote, 1))
			if (quote === '"') value = value.replace(/\\n/g, '\n').replace(/\\"/g, '"')
		} else {
			// An unquoted value ends at an inline comment (" #").
			value = value.replace(/\s+#.*$/, '').trim()
		}
		result[key] = value
	}
	return result
}

/** Reads and parses an environment file; a missing one yields `{}`, one that cannot be read is an error naming it. */
export function loadEnvFile(path: string): Record<string, string> {
	if (!existsSync(path)) return {}
	let text: string
	try {
		text = readFileSync(path, 'utf8')
	} catch (error) {
		// A file that is there but cannot be read would otherwise pass for no file: its session and
		// settings silently gone, and "Not logged in" said instead of why.
		if ((error as { code?: unknown }).code === 'EISDIR')
			throw new Error(`--env: '${path}' is a folder; name the environment file in it`)
		throw new Error(`cannot read the environment file ${path}: ${fileReadReason(error)}`)
	}
	return parseEnv(text)
}

/** The file's variables overlaid by the process environment (the process wins). */
export function mergeEnv(
	fileVars: Record<string, string>,
	processEnv: Record<string, string | undefined> = process.env
): Record<string, string> {
	const merged = { ...fileVars }
	for (const [key, value] of Object.entries(processEnv))
		if (value !== undefined && value !== '') merged[key] = value
	return merged
}

/** Instagram credentials from variables (SESSION_ID, CSRF_TOKEN, DS_USER_ID, optional MID, IG_DID, DATR, RUR, USER_AGENT, IG_WWW_CLAIM); undefined unless the three required ones are set. */
export function credentialsFromEnv(vars: Record<string, string | undefined>): Credentials | undefined {
	const value = (name: string) => vars[name]?.trim() || undefined
	const sessionId = value('SESSION_ID')
	const csrfToken = value('CSRF_TOKEN')
	const dsUserId = value('DS_USER_ID')
	if (!sessionId || !csrfToken || !dsUserId) return undefined
	return {
		sessionId,
		csrfToken,
		dsUserId,
		mid: value('MID'),
		igDid: value('IG_DID'),
		datr: value('DATR'),
		rur: value('RUR'),
		userAgent: value('USER_AGENT'),
		igWwwClaim: value('IG_WWW_CLAIM')
	}
}

/**
 * A client configured from the environment file at `envPath` plus the process environment:
 * credentials (when complete) and `SMKIT_UPSTREAM_URL` as `baseURL`. `overrides` win over both.
 */
export function createClientFromEnv(envPath = '.env', overrides: ClientOptions = {}): InstagramClient {
	const vars = mergeEnv(loadEnvFile(envPath))
	return new InstagramClient({
		baseURL: vars.SMKIT_UPSTREAM_URL?.trim() || undefined,
		credentials: credentialsFromEnv(vars),
		...overrides
	})
}
