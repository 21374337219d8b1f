import { describe, expect, it } from 'bun:test'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Type } from '@sinclair/typebox'
import { cac } from 'cac'
import { parsePlaygroundOptions } from '../../src/playground/serve'
import { serverOptions } from '../../src/server/bootstrap'
import { addOptions, cacKeyOf, parseOptions } from '../../src/server/options'
import { usageError } from '../support/usage-error'

const options = {
	...serverOptions(8877),
	savedDir: Type.String({ default: 'demo/saved', flag: '--saved-dir <dir>', description: 'Where saves go' }),
	verbose: Type.Boolean({ default: false, flag: '-v, --verbose', description: 'Say more' }),
	limit: Type.Optional(
		Type.Number({ minimum: 1, flag: '--limit <n>', description: 'At most', error: "bad --limit '{value}'" })
	)
}

describe('command options from schemas', () => {
	it('cac keys are the camel-cased long flag', () => {
		expect(cacKeyOf('--cors-origin <origin>')).toBe('corsOrigin')
		expect(cacKeyOf('-i, --interactive')).toBe('interactive')
		expect(cacKeyOf('--port <port>')).toBe('port')
	})

	it('fills defaults and returns values under the schemas keys', () => {
		expect(parseOptions(options, {})).toEqual({
			port: 8877,
			host: '127.0.0.1',
			envPath: '.env',
			token: undefined,
			corsOrigin: undefined,
			savedDir: 'demo/saved',
			verbose: false,
			limit: undefined
		})
		expect(
			parseOptions(options, { env: 'x.env', saveDir: 'ignored', savedDir: 'out', verbose: true })
		).toMatchObject({ envPath: 'x.env', savedDir: 'out', verbose: true })
	})

	it('--env naming a folder is bad usage naming it; a file that does not exist yet is fine', async () => {
		const folder = await mkdtemp(path.join(tmpdir(), 'smkit-env-'))
		try {
			const error = usageError(() => parseOptions(options, { env: folder }))
			expect(error.message).toBe(`--env must be the path of a file, not a folder: '${folder}'`)
			expect(error.exitCode).toBe(2)
			const file = path.join(folder, 'later.env')
			expect(parseOptions(options, { env: file }).envPath).toBe(file)
		} finally {
			await rm(folder, { recursive: true, force: true })
		}
	})

	it('the playground refuses a --saved-dir that is a file and a --db that is a folder, naming them', async () => {
		const folder = await mkdtemp(path.join(tmpdir(), 'smkit-saved-'))
		try {
			const file = path.join(folder, 'notes.txt')
			await Bun.write(file, 'not a folder')
			const saved = usageError(() => parsePlaygroundOptions({ savedDir: file }))
			expect(saved.message).toBe(`--saved-dir must be a folder, not a file: '${file}'`)
			expect(saved.exitCode).toBe(2)
			const db = usageError(() => parsePlaygroundOptions({ db: folder }))
			expect(db.message).toBe(`--db must be the path of a database file, not a folder: '${folder}'`)
			// A folder that does not exist yet is created at the first save; an existing one is fine.
			const later = path.join(folder, 'later')
			expect(parsePlaygroundOptions({ savedDir: later, db: file }).savedDir).toBe(later)
			expect(parsePlaygroundOptions({ savedDir: folder }).savedDir).toBe(folder)
		} finally {
			await rm(folder, { recursive: true, force: true })
		}
	})

	it('converts numeric words, trims text and applies transforms', () => {
		const parsed = parseOptions(options, {
			port: '8123',
			host: ' localhost ',
			corsOrigin: 'http://localhost:5173/some/path',
			limit: '2.5'
		})
		expect(parsed).toMatchObject({
			port: 8123,
			host: 'localhost',
			corsOrigin: 'http://localhost:5173',
			limit: 2.5
		})
		// Leading zeros are still plain decimal digits.
		expect(parseOptions(options, { port: '0080', limit: '007' })).toMatchObject({ port: 80, limit: 7 })
		// IPv6 addresses keep their colons; only a name or IPv4 address with a port is refused.
		for (const host of ['::1', '[::1]', 'fe80::1', '0.0.0.0', 'my-host.local'])
			expect(parseOptions(options, { host }).host).toBe(host)
	})

	it.each([
		[{ port: 80.5 }, "--port must be an integer from 0 to 65535, got '80.5'"],
		[{ port: 'abc' }, "--port must be an integer from 0 to 65535, got 'abc'"],
		[
			{ host: 'a/b' },
			"--host is not a host name or address (without a scheme or a port: --port gives that): 'a/b'"
		],
		[
			{ host: '127.0.0.1:9000' },
			"--host is not a host name or address (without a scheme or a port: --port gives that): '127.0.0.1:9000'"
		],
		[
			{ host: 'localhost:' },
			"--host is not a host name or address (without a scheme or a port: --port gives that): 'localhost:'"
		],
		[{ token: 'short' }, '--token must be at least 16 characters'],
		[{ corsOrigin: 'not a url' }, '--cors-origin must be an origin like http://localhost:5173'],
		[{ limit: 0 }, "bad --limit '0'"],
		// Plain decimal digits only, as the HTTP API (docs/api-contract.md, "Data"): Number() read
		// these as 16, 1000, 10, 7 and Infinity.
		[{ port: '0x10' }, "--port must be an integer from 0 to 65535, got '0x10'"],
		[{ port: '1e3' }, "--port must be an integer from 0 to 65535, got '1e3'"],
		[{ port: '0b1010' }, "--port must be an integer from 0 to 65535, got '0b1010'"],
		[{ port: '+7' }, "--port must be an integer from 0 to 65535, got '+7'"],
		[{ port: '80.0' }, "--port must be an integer from 0 to 65535, got '80.0'"],
		[{ limit: '1e3' }, "bad --limit '1e3'"],
		[{ limit: '0x10' }, "bad --limit '0x10'"],
		[{ limit: 'Infinity' }, "bad --limit 'Infinity'"],
		[{ limit: '.5' }, "bad --limit '.5'"]
	])('a bad value is a usage error with the option message: %p', (raw, message) => {
		const error = usageError(() => parseOptions(options, raw))
		expect(error.exitCode).toBe(2)
		expect(error.message).toBe(message)
	})

	it('an empty value is missing, not the default (an unset shell variable ran the whole list)', () => {
		expect(usageError(() => parseOptions(options, { limit: '' })).message).toBe('--limit needs a value')
		expect(usageError(() => parseOptions(options, { port: '' })).message).toBe('--port needs a value')
		expect(usageError(() => parseOptions(options, { savedDir: '' })).exitCode).toBe(2)
	})

	it('an option without its own message names its flag', () => {
		const schemas = { mode: Type.Union([Type.Literal('a'), Type.Literal('b')], { flag: '--mode <m>' }) }
		expect(usageError(() => parseOptions(schemas, { mode: 'c' })).message).toBe(
			"--mode has an invalid value: 'c'"
		)
		expect(usageError(() => parseOptions(schemas, {})).message).toBe("--mode has an invalid value: ''")
	})

	it('registers the same flags, help and defaults with cac', () => {
		const cli = cac('smkit')
		cli.help()
		addOptions(cli.command('serve', 'Serve'), options).action(() => {})
		const parsed = cli.parse(['node', 'smkit', 'serve', '--cors-origin', 'http://a.test', '-v'], {
			run: false
		})
		expect(parsed.options).toMatchObject({
			port: 8877,
			host: '127.0.0.1',
			corsOrigin: 'http://a.test',
			verbose: true
		})
		expect(parseOptions(options, parsed.options)).toMatchObject({
			corsOrigin: 'http://a.test',
			verbose: true
		})
		const lines: string[] = []
		const info = console.info
		console.info = (line: string) => lines.push(line)
		try {
			cli.parse(['node', 'smkit', 'serve', '--help'], { run: false })
		} finally {
			console.info = info
		}
		const help = lines.join('\n')
		expect(help).toContain('--port <port>')
		expect(help).toContain('(default: 8877)')
		expect(help).toContain('--saved-dir <dir>')
		expect(help).not.toContain('(default: false)')
	})
})
