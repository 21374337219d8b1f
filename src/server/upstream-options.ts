/**
 * How every command reaches Instagram: proxies (`--proxy URL`, `--proxy-file FILE` with
 * `--proxy-mode rotate|sticky`, which is bad usage without any proxy, else the standard HTTPS_PROXY / HTTP_PROXY / ALL_PROXY and NO_PROXY
 * variables) and the speed mode (`--speed`, else SMKIT_SPEED, else `normal`; demo mode's simulator
 * runs `unlimited` unless a speed is chosen). The schemas register the flags on every command that
 * talks to Instagram; `resolveUpstream` turns them and the environment into client options.
 */
import { readFileSync } from 'node:fs'
import { Type } from '@sinclair/typebox'
import { UsageError } from '../cli-error'
import type { ClientOptions } from '../client/client'
import { fileReadReason } from '../client/file-write-error'
import { bypassesProxy, ProxyConfigError, ProxyPool, redactProxyUrl, validateProxyUrl } from '../client/proxy'
import { redactSecrets } from '../client/redact'
import { INSTAGRAM_ORIGIN } from '../client/request'
import { BUDGET_FACTORS, isSpeedMode, type SpeedMode, unlimitedWarning } from '../client/speed'

/** The options of every command that talks to Instagram. */
export const upstreamOptions = {
	proxy: Type.Optional(
		Type.String({
			flag: '--proxy <url>',
			description:
				'Send every Instagram request through this http(s) proxy (default: HTTPS_PROXY / ALL_PROXY; HTTP_PROXY for an http:// upstream)'
		})
	),
	proxyFile: Type.Optional(
		Type.String({
			minLength: 1,
			flag: '--proxy-file <file>',
			description: 'A list of proxies, one URL a line, used as --proxy-mode says'
		})
	),
	// No default in the schema: given without any proxy, it is bad usage rather than ignored.
	proxyMode: Type.Optional(
		Type.Union([Type.Literal('rotate'), Type.Literal('sticky')], {
			flag: '--proxy-mode <mode>',
			description:
				'With proxies: rotate takes the next one for each request, sticky one until it fails (default: rotate)',
			error: "--proxy-mode must be rotate or sticky, got '{value}'"
		})
	),
	speed: Type.Optional(
		Type.Union(
			[Type.Literal('safe'), Type.Literal('normal'), Type.Literal('fast'), Type.Literal('unlimited')],
			{
				flag: '--speed <mode>',
				description: 'safe, normal, fast or unlimited: scales rate-limit budgets and pauses (or SMKIT_SPEED)',
				error: "--speed must be safe, normal, fast or unlimited, got '{value}'"
			}
		)
	)
}

/** Validated upstream options (as parsed from the schemas above). */
export interface UpstreamCommandOptions {
	proxy?: string
	proxyFile?: string
	/** Given only with proxies to choose from; `rotate` when not given. */
	proxyMode?: 'rotate' | 'sticky'
	speed?: SpeedMode
}

/** What a command hands its client, and what it tells the user. */
export interface UpstreamSettings {
	/** `speed` and `proxies` for the client. */
	clientOptions: Pick<ClientOptions, 'speed' | 'proxies'>
	speed: SpeedMode
	/** Start-up lines (proxy in use, credentials redacted; speed when not normal). */
	lines: string[]
	/** Printed on stderr before anything runs (the `unlimited` warning). */
	warnings: string[]
}

/**
 * A `--proxy-file` argument as an error message may show it: a proxy URL given where the file is
 * expected shows no credentials (`http://[redacted]@host:port`; a scheme-less `user:password@host`
 * or `host:port:user:password` as `[redacted proxy]`), nor does any other path holding a URL's
 * `user:password@`. `proxyLike` says whether it looks like a proxy rather than a file name.
 */
export function shownProxyFileArgument(argument: string): { shown: string; proxyLike: boolean } {
	const text = argument.trim()
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) return { shown: redactProxyUrl(text), proxyLike: true }
	if (/^(\[[0-9a-f:.]+\]|[a-z0-9.-]+):\d{1,5}$/i.test(text)) return { shown: text, proxyLike: true }
	if (/^[^\s/@]+@[^\s/@]+:\d{1,5}$|^[^\s/:]+:\d{1,5}:[^\s:]+:\S+$/.test(text))
		return { shown: '[redacted proxy]', proxyLike: true }
	return { shown: redactSecrets(argument, []), proxyLike: false }
}

/** Why a `--proxy-file` cannot be read; a proxy URL given in its place is told to go to `--proxy`. */
function unreadableProxyFile(path: string, error: unknown): UsageError {
	const { shown, proxyLike } = shownProxyFileArgument(path)
	return new UsageError(
		proxyLike
			? `--proxy-file: cannot read '${shown}': --proxy-file takes a file of proxy URLs; for one proxy use --proxy URL`
			: `--proxy-file: cannot read '${shown}': ${fileReadReason(error)}`
	)
}

/**
 * The proxy URL of one `--proxy-file` line, or undefined for a blank or comment line. A comment may
 * also follow the URL after white space (`http://host:8080   # backup`): a proxy URL has no fragment
 * and no white space, so ` #` starts a comment, unless the text before it is no usable proxy (a
 * password cut by a space and `#`), which is then diagnosed as the whole line.
 */
export function proxyFileLine(raw: string): string | undefined {
	const line = raw.trim()
	if (line === '' || line.startsWith('#')) return undefined
	const beforeComment = line.replace(/\s+#.*$/, '')
	if (beforeComment !== line) {
		try {
			return validateProxyUrl(beforeComment)
		} catch (error) {
			if (!(error instanceof ProxyConfigError)) throw error
		}
	}
	return validateProxyUrl(line)
}

/**
 * Proxy URLs of a `--proxy-file`: one a line, blank lines and `#` comments skipped (whole lines, or
 * after a URL and white space). A line that is no usable proxy is bad usage naming its line number,
 * so it can be found in a list of hundreds.
 */
export function readProxyFile(path: string): string[] {
	let text: string
	try {
		text = readFileSync(path, 'utf8')
	} catch (error) {
		throw unreadableProxyFile(path, error)
	}
	const urls: string[] = []
	for (const [index, raw] of text.split(/\r?\n/).entries()) {
		try {
			const url = proxyFileLine(raw)
			if (url !== undefined) urls.push(url)
		} catch (error) {
			if (!(error instanceof ProxyConfigError)) throw error
			throw new UsageError(`--proxy-file: '${path}' line ${index + 1}: ${error.message}`)
		}
	}
	if (urls.length === 0) throw new UsageError(`--proxy-file: '${path}' lists no proxy`)
	return urls
}

/** The proxy the standard variables name for requests to `origin` (HTTPS_PROXY for https, HTTP_PROXY for http, then ALL_PROXY), and the variable it comes from. */
export function proxyFromEnvironment(
	env: Record<string, string | undefined>,
	origin: string
): { url: string; variable: string } | undefined {
	const names = origin.startsWith('https:')
		? ['HTTPS_PROXY', 'https_proxy', 'ALL_PROXY', 'all_proxy']
		: ['HTTP_PROXY', 'http_proxy', 'ALL_PROXY', 'all_proxy']
	for (const name of names) {
		const value = env[name]?.trim()
		if (value) return { url: value, variable: name }
	}
	return undefined
}

/** Speed from the option, else SMKIT_SPEED, else `normal` (`unlimited` in demo mode). */
function resolveSpeed(
	option: SpeedMode | undefined,
	env: Record<string, string | undefined>,
	demo: boolean
): SpeedMode {
	if (option) return option
	const fromEnv = env.SMKIT_SPEED?.trim()
	if (fromEnv) {
		if (!isSpeedMode(fromEnv))
			throw new UsageError(`SMKIT_SPEED must be safe, normal, fast or unlimited, got '${fromEnv}'`)
		return fromEnv
	}
	return demo ? 'unlimited' : 'normal'
}

/**
 * `--proxy-mode` given without any proxy. In demo mode the simulated Instagram runs in this process
 * and the environment's proxy (HTTPS_PROXY ...) is not used for it: only --proxy and --proxy-file
 * count, and the message says so rather than suggest the variable.
 */
function noProxyToChoose(mode: string, inProcess: boolean): UsageError {
	return new UsageError(
		inProcess
			? `--proxy-mode ${mode} needs proxies to choose from: give --proxy-file (or --proxy); in demo mode the environment's proxy (HTTPS_PROXY, HTTP_PROXY, ALL_PROXY) is not used, since the simulated Instagram runs in this process`
			: `--proxy-mode ${mode} needs proxies to choose from: give --proxy-file (or --proxy, or HTTPS_PROXY in the environment)`
	)
}

/**
 * Resolves the proxies and speed of a command. `env` is the merged environment (file and process);
 * `demo` says the upstream is the simulator. A bad proxy or speed is a UsageError (exit 2) whose
 * message shows proxy URLs without credentials.
 */
export function resolveUpstream(
	options: UpstreamCommandOptions,
	env: Record<string, string | undefined>,
	demo = false
): UpstreamSettings {
	if (options.proxy && options.proxyFile) throw new UsageError('--proxy and --proxy-file cannot be combined')
	const origin = env.SMKIT_UPSTREAM_URL?.trim() || INSTAGRAM_ORIGIN
	if (!/^https?:\/\/[^/?#\s]+/.test(origin) || !URL.canParse(origin))
		throw new UsageError(
			'SMKIT_UPSTREAM_URL must be an http:// or https:// origin, e.g. http://127.0.0.1:9000'
		)
	// The demo's simulated Instagram runs in this process, on loopback: a proxy of the shell cannot
	// reach it (one given with --proxy or --proxy-file is used, as asked).
	const inProcess = demo && !env.SMKIT_UPSTREAM_URL?.trim()
	const environmentProxy = options.proxy || options.proxyFile ? undefined : proxyFromEnvironment(env, origin)
	const fromEnvironment = inProcess ? undefined : environmentProxy
	const urls = options.proxyFile
		? readProxyFile(options.proxyFile)
		: [options.proxy ?? fromEnvironment?.url].filter((url): url is string => Boolean(url))
	if (options.proxyMode && urls.length === 0) throw noProxyToChoose(options.proxyMode, inProcess)
	const speed = resolveSpeed(options.speed, env, demo)
	const lines: string[] = []
	if (inProcess && environmentProxy)
		lines.push(
			`Proxy: ${environmentProxy.variable} not used: the demo's simulated Instagram runs in this process`
		)
	// Said, since an environment file can set it: the session's cookies go wherever it points.
	if (!demo && origin !== INSTAGRAM_ORIGIN)
		lines.push(`Instagram: requests go to ${new URL(origin).origin} (SMKIT_UPSTREAM_URL), not instagram.com`)
	let proxies: ProxyPool | undefined
	if (urls.length > 0) {
		try {
			proxies = new ProxyPool({
				urls,
				mode: options.proxyMode ?? 'rotate',
				noProxy: env.NO_PROXY ?? env.no_proxy
			})
		} catch (error) {
			const source = options.proxyFile
				? '--proxy-file'
				: options.proxy
					? '--proxy'
					: fromEnvironment?.variable
			if (error instanceof ProxyConfigError) throw new UsageError(`${source}: ${error.message}`)
			throw error
		}
		const [first] = proxies.figures()
		const direct = bypassesProxy(new URL(origin), env.NO_PROXY ?? env.no_proxy)
		lines.push(
			(proxies.size === 1
				? `Proxy: ${first?.url}${fromEnvironment ? ' (from the environment)' : ''}`
				: `Proxies: ${proxies.size} from ${options.proxyFile}, ${proxies.mode}`) +
				(direct ? `, not used: NO_PROXY names ${new URL(origin).host}` : '')
		)
	}
	const factor = BUDGET_FACTORS[speed]
	// Demo mode's default (the simulator at full speed) goes unsaid; any chosen speed is said.
	const demoDefault = demo && !options.speed && !env.SMKIT_SPEED?.trim()
	if (speed !== 'normal' && !demoDefault)
		lines.push(
			`Speed: ${speed} (${factor === null ? 'no client-side rate limits' : `rate-limit budgets x${factor}`})`
		)
	return {
		clientOptions: { speed, proxies },
		speed,
		lines,
		// The simulator has no account to protect: no warning for demo mode's default.
		warnings:
			speed === 'unlimited' && !demoDefault
				? [unlimitedWarning(options.speed ? '--speed unlimited' : 'SMKIT_SPEED=unlimited')]
				: []
	}
}
