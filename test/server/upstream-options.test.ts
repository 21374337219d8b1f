/**
 * How a command's proxy and speed come from its options and the environment: `--speed` over
 * SMKIT_SPEED over the default, `--proxy`/`--proxy-file` over HTTPS_PROXY / HTTP_PROXY / ALL_PROXY,
 * NO_PROXY, and proxy credentials never in what is printed.
 */
import { afterAll, describe, expect, it } from 'bun:test'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { unlimitedWarning } from '../../src/client/speed'
import { resolveUpstream } from '../../src/server/upstream-options'
import { usageError } from '../support/usage-error'

const folder = await mkdtemp(path.join(tmpdir(), 'smkit-upstream-'))
afterAll(() => rm(folder, { recursive: true, force: true }))

/** No option given: proxies come from the environment, in rotation. */
const defaults = {}
const INSTAGRAM = new URL('https://www.instagram.com/api/v1/users/web_profile_info/')
const SIMULATOR = 'http://127.0.0.1:4000'

describe('upstream', () => {
	it('SMKIT_UPSTREAM_URL that is not an http(s) origin is bad usage naming it; blank counts as unset', () => {
		for (const value of ['localhost:9000', '127.0.0.1', 'ftp://127.0.0.1', 'http://', 'http:// x'])
			expect(usageError(() => resolveUpstream(defaults, { SMKIT_UPSTREAM_URL: value })).message).toStartWith(
				'SMKIT_UPSTREAM_URL must be an http:// or https:// origin'
			)
		expect(resolveUpstream(defaults, { SMKIT_UPSTREAM_URL: '  ' }).lines).toEqual([])
		// Another origin than Instagram's is said at start (an environment file can set it), without
		// credentials; the simulator of demo mode goes unsaid.
		expect(resolveUpstream(defaults, { SMKIT_UPSTREAM_URL: `${SIMULATOR}/` }).lines).toEqual([
			`Instagram: requests go to ${SIMULATOR} (SMKIT_UPSTREAM_URL), not instagram.com`
		])
		expect(
			resolveUpstream(defaults, { SMKIT_UPSTREAM_URL: 'http://user:secret@127.0.0.1:9/' }).lines
		).toEqual(['Instagram: requests go to http://127.0.0.1:9 (SMKIT_UPSTREAM_URL), not instagram.com'])
		expect(resolveUpstream(defaults, { SMKIT_UPSTREAM_URL: SIMULATOR }, true).lines).toEqual([])
	})
})

describe('speed', () => {
	it('--speed wins over SMKIT_SPEED, which wins over the default (normal; unlimited in demo mode)', () => {
		expect(resolveUpstream(defaults, {}).speed).toBe('normal')
		expect(resolveUpstream(defaults, {}, true).speed).toBe('unlimited')
		expect(resolveUpstream(defaults, { SMKIT_SPEED: 'safe' }).speed).toBe('safe')
		expect(resolveUpstream(defaults, { SMKIT_SPEED: 'safe' }, true).speed).toBe('safe')
		expect(resolveUpstream({ ...defaults, speed: 'fast' }, { SMKIT_SPEED: 'safe' }).speed).toBe('fast')
		expect(resolveUpstream(defaults, { SMKIT_SPEED: 'fast' }).clientOptions.speed).toBe('fast')
	})

	it('says a chosen speed at start and warns about unlimited, but not for demo mode default', () => {
		expect(resolveUpstream(defaults, {}).lines).toEqual([])
		expect(resolveUpstream(defaults, {}, true)).toMatchObject({ lines: [], warnings: [] })
		expect(resolveUpstream(defaults, { SMKIT_SPEED: 'fast' }).lines).toEqual([
			'Speed: fast (rate-limit budgets x2)'
		])
		const unlimited = resolveUpstream({ ...defaults, speed: 'unlimited' }, {})
		expect(unlimited.warnings).toEqual([unlimitedWarning('--speed unlimited')])
		expect(unlimited.warnings[0]).toStartWith(
			'Warning: --speed unlimited turns off the client-side rate limits'
		)
		// Set in the environment (file), the warning names the variable, not a flag nobody gave.
		expect(resolveUpstream(defaults, { SMKIT_SPEED: 'unlimited' }).warnings).toEqual([
			unlimitedWarning('SMKIT_SPEED=unlimited')
		])
		expect(unlimited.lines).toEqual(['Speed: unlimited (no client-side rate limits)'])
	})

	it('refuses an unknown SMKIT_SPEED as bad usage', () => {
		expect(usageError(() => resolveUpstream(defaults, { SMKIT_SPEED: 'turbo' })).message).toContain(
			"SMKIT_SPEED must be safe, normal, fast or unlimited, got 'turbo'"
		)
	})
})

describe('proxies', () => {
	it('takes HTTPS_PROXY for Instagram, HTTP_PROXY for an http:// upstream, else ALL_PROXY', () => {
		const env = { HTTPS_PROXY: 'http://127.0.0.1:3001', HTTP_PROXY: 'http://127.0.0.1:3002' }
		const https = resolveUpstream(defaults, env).clientOptions.proxies
		expect(https?.pick(INSTAGRAM)?.url).toBe('http://127.0.0.1:3001')
		const http = resolveUpstream(defaults, { ...env, SMKIT_UPSTREAM_URL: SIMULATOR }).clientOptions.proxies
		expect(http?.pick(new URL(`${SIMULATOR}/x`))?.url).toBe('http://127.0.0.1:3002')
		const all = resolveUpstream(defaults, { ALL_PROXY: 'http://127.0.0.1:3003' }).clientOptions.proxies
		expect(all?.pick(INSTAGRAM)?.url).toBe('http://127.0.0.1:3003')
		expect(resolveUpstream(defaults, {}).clientOptions.proxies).toBeUndefined()
	})

	it('--proxy wins over the variables; NO_PROXY hosts are reached directly and the start-up line says so', () => {
		const chosen = resolveUpstream(
			{ ...defaults, proxy: 'http://127.0.0.1:3009' },
			{ HTTPS_PROXY: 'http://127.0.0.1:3001' }
		)
		expect(chosen.clientOptions.proxies?.pick(INSTAGRAM)?.url).toBe('http://127.0.0.1:3009')
		expect(chosen.lines).toEqual(['Proxy: http://127.0.0.1:3009'])
		const bypassed = resolveUpstream(defaults, {
			HTTPS_PROXY: 'http://127.0.0.1:3001',
			NO_PROXY: 'localhost, .instagram.com'
		})
		expect(bypassed.clientOptions.proxies?.pick(INSTAGRAM)).toBeUndefined()
		expect(bypassed.lines).toEqual([
			'Proxy: http://127.0.0.1:3001 (from the environment), not used: NO_PROXY names www.instagram.com'
		])
	})

	it("--demo's in-process simulator takes no proxy of the environment, and says so; --proxy still goes", () => {
		const env = { HTTPS_PROXY: 'http://127.0.0.1:3001', HTTP_PROXY: 'http://127.0.0.1:3002' }
		const demo = resolveUpstream(defaults, env, true)
		expect(demo.clientOptions.proxies).toBeUndefined()
		expect(demo.lines).toEqual([
			"Proxy: HTTPS_PROXY not used: the demo's simulated Instagram runs in this process"
		])
		const asked = resolveUpstream({ ...defaults, proxy: 'http://127.0.0.1:3009' }, env, true)
		expect(asked.clientOptions.proxies?.size).toBe(1)
		// A simulator of its own (SMKIT_UPSTREAM_URL) is reached like Instagram: through HTTP_PROXY.
		const separate = resolveUpstream(defaults, { ...env, SMKIT_UPSTREAM_URL: SIMULATOR }, true)
		expect(separate.clientOptions.proxies?.pick(new URL(`${SIMULATOR}/x`))?.url).toBe('http://127.0.0.1:3002')
	})

	it('reads --proxy-file (comments and blank lines skipped) in the mode asked for', async () => {
		const file = path.join(folder, 'proxies.txt')
		await writeFile(file, '# pool\nhttp://127.0.0.1:3001\n\nhttp://u:p4ss@127.0.0.1:3002\n')
		const sticky = resolveUpstream({ proxyFile: file, proxyMode: 'sticky' }, {})
		expect(sticky.clientOptions.proxies?.size).toBe(2)
		expect(sticky.clientOptions.proxies?.mode).toBe('sticky')
		expect(sticky.lines).toEqual([`Proxies: 2 from ${file}, sticky`])
	})

	it('a --proxy-file without --proxy-mode rotates', async () => {
		const file = path.join(folder, 'rotating.txt')
		await writeFile(file, 'http://127.0.0.1:3001\nhttp://127.0.0.1:3002\n')
		expect(resolveUpstream({ proxyFile: file }, {}).clientOptions.proxies?.mode).toBe('rotate')
	})

	it('--proxy-mode without any proxy is bad usage, not ignored; one from the environment counts', () => {
		for (const proxyMode of ['sticky', 'rotate'] as const)
			expect(usageError(() => resolveUpstream({ proxyMode }, {})).message).toStartWith(
				`--proxy-mode ${proxyMode} needs proxies to choose from: give --proxy-file`
			)
		const fromEnvironment = resolveUpstream({ proxyMode: 'sticky' }, { HTTPS_PROXY: 'http://127.0.0.1:3001' })
		expect(fromEnvironment.clientOptions.proxies?.mode).toBe('sticky')
	})

	it('refuses bad proxy settings as bad usage, never showing credentials', async () => {
		const empty = path.join(folder, 'empty.txt')
		await writeFile(empty, '# nothing\n')
		const cases: [Parameters<typeof resolveUpstream>[0], Record<string, string>, string][] = [
			[
				{ ...defaults, proxy: 'socks5://user:s0cks-pass@127.0.0.1:1080' },
				{},
				'socks5 proxies are not supported'
			],
			[{ ...defaults }, { HTTPS_PROXY: 'ftp://user:ftp-pass@host' }, 'must be an http:// or https:// URL'],
			[{ ...defaults, proxy: 'http://127.0.0.1:1', proxyFile: empty }, {}, 'cannot be combined'],
			[{ ...defaults, proxyFile: empty }, {}, 'lists no proxy'],
			[
				{ ...defaults, proxyFile: path.join(folder, 'missing.txt') },
				{},
				`cannot read '${path.join(folder, 'missing.txt')}': there is no such file`
			]
		]
		for (const [options, env, message] of cases) {
			const error = usageError(() => resolveUpstream(options, env))
			expect(error.message).toContain(message)
			expect(error.message).not.toMatch(/s0cks-pass|ftp-pass/)
		}
	})

	it('a proxy URL without its scheme (user:password@host:port) shows neither part and names its variable', () => {
		for (const [options, env, source] of [
			[{ ...defaults, proxy: 'alice:pr0xy-s3cret@127.0.0.1:3001' }, {}, '--proxy'],
			[{ ...defaults }, { HTTPS_PROXY: 'alice:pr0xy-s3cret@127.0.0.1:3001' }, 'HTTPS_PROXY']
		] as const) {
			const error = usageError(() => resolveUpstream(options, env))
			expect(error.message).toStartWith(
				`${source}: [redacted proxy]: a proxy must be an http:// or https:// URL`
			)
			expect(error.message).not.toMatch(/alice|pr0xy-s3cret/)
		}
	})

	it('names the line of a --proxy-file that is no usable proxy, and how to write a scheme-less one', async () => {
		const list = path.join(folder, 'list.txt')
		const refusal = async (lines: string[]) => {
			await writeFile(list, `# bought list\n${lines.join('\n')}\n`)
			return usageError(() => resolveUpstream({ ...defaults, proxyFile: list }, {})).message
		}
		const good = 'http://alice:pr0xy-s3cret@127.0.0.1:3001'
		// The seller's host:port:user:password form: line 4, with how to write it, and no password shown.
		const sold = await refusal([good, '', '10.0.0.7:8000:bob:b0b-s3cret'])
		expect(sold).toStartWith(
			`--proxy-file: '${list}' line 4: [redacted proxy]: a proxy must be an http:// or https:// URL`
		)
		expect(sold).toContain('http://user:password@host:port')
		expect(sold).not.toMatch(/b0b-s3cret|pr0xy-s3cret/)
		expect(await refusal([good, '10.0.0.7:8000'])).toBe(
			`--proxy-file: '${list}' line 3: 10.0.0.7:8000: a proxy URL starts with its scheme: http://10.0.0.7:8000`
		)
		expect(await refusal(['socks5://bob:b0b-s3cret@10.0.0.7:1080'])).toBe(
			`--proxy-file: '${list}' line 2: socks5://[redacted]@10.0.0.7:1080: socks5 proxies are not supported (Bun's fetch speaks http:// and https:// proxies only)`
		)
		// --proxy says the same for host:port.
		expect(usageError(() => resolveUpstream({ ...defaults, proxy: '127.0.0.1:8080' }, {})).message).toBe(
			'--proxy: 127.0.0.1:8080: a proxy URL starts with its scheme: http://127.0.0.1:8080'
		)
	})

	it('prints proxies without their credentials', () => {
		const secret = resolveUpstream({ ...defaults, proxy: 'http://alice:pr0xy-s3cret@127.0.0.1:3001' }, {})
		expect(secret.lines.join('\n')).not.toContain('pr0xy-s3cret')
		expect(secret.lines.join('\n')).not.toContain('alice')
	})
})
