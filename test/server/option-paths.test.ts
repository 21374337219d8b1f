/**
 * Path options (`--db`, `--env`, `--saved-dir`) given a path no file can have: a part of it that is
 * a file, or a name too long. The system's ENOTDIR and ENAMETOOLONG were once reported as "a
 * folder"; they are bad usage said as they are, and a missing --env file stays fine.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { collectOptions } from '../../src/jobs/collect'
import { parsePlaygroundOptions } from '../../src/playground/serve'
import { parseOptions } from '../../src/server/options'
import { usageError } from '../support/usage-error'

let folder: string
let file: string
beforeAll(() => {
	folder = mkdtempSync(join(tmpdir(), 'smkit-option-paths-'))
	file = join(folder, 'afile')
	writeFileSync(file, 'a file, not a folder')
})
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const longName = `${'x'.repeat(300)}.db`

test('--db under a file names the file; a name too long says so; both exit 2', () => {
	const under = usageError(() => parseOptions(collectOptions, { db: join(file, 's.db') }))
	expect(under.message).toBe(`--db: ${file} is a file, not a folder`)
	expect(under.exitCode).toBe(2)
	const deeper = usageError(() => parseOptions(collectOptions, { db: join(file, 'a', 'b', 's.db') }))
	expect(deeper.message).toBe(`--db: ${file} is a file, not a folder`)
	const long = usageError(() => parseOptions(collectOptions, { db: join(folder, longName) }))
	expect(long.message).toBe('--db: the name is too long')
	expect(long.exitCode).toBe(2)
	// A folder is still refused as before.
	expect(usageError(() => parseOptions(collectOptions, { db: folder })).message).toBe(
		`--db must be the path of a database file, not a folder: '${folder}'`
	)
})

test('--env under a file is bad usage with the true reason; a missing file in a missing folder is fine', () => {
	const under = usageError(() => parseOptions(collectOptions, { env: join(file, 'x.env') }))
	expect(under.message).toBe(`--env: ${file} is a file, not a folder`)
	expect(under.exitCode).toBe(2)
	expect(usageError(() => parseOptions(collectOptions, { env: join(folder, longName) })).message).toBe(
		'--env: the name is too long'
	)
	const missing = join(folder, 'no-such-folder', 'x.env')
	expect(parseOptions(collectOptions, { env: missing }).envPath).toBe(missing)
})

test('--saved-dir under a file names the file', () => {
	expect(usageError(() => parsePlaygroundOptions({ savedDir: join(file, 'saved') })).message).toBe(
		`--saved-dir: ${file} is a file, not a folder`
	)
})
