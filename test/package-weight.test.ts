/**
 * The install stays small: every package is weighed before it is added (docs/architecture.md,
 * "Dependencies"). `npm ls --all --parseable` lists the project and every installed package, one a
 * line; the cap leaves room for what is planned, not for a framework's whole tree.
 */
import { describe, expect, it } from 'bun:test'
import { resolve } from 'node:path'
import packageJson from '../package.json'

const root = resolve(import.meta.dir, '..')
const MAX_INSTALLED = 200

describe('package weight', () => {
	it(`installs at most ${MAX_INSTALLED} packages`, async () => {
		const listing = Bun.spawn(['npm', 'ls', '--all', '--parseable'], {
			cwd: root,
			stdout: 'pipe',
			stderr: 'ignore'
		})
		const lines = (await new Response(listing.stdout).text()).split('\n').filter((line) => line.trim() !== '')
		await listing.exited
		expect(lines.length).toBeGreaterThan(10)
		expect(lines.length).toBeLessThanOrEqual(MAX_INSTALLED)
	})

	it('types Bun with the version of Bun it runs on', () => {
		expect(packageJson.devDependencies['@types/bun']).toBe(packageJson.devDependencies.bun)
	})
})
