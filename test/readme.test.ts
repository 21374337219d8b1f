/** The README names the Node.js version the install needs, the same as package.json's engines. */
import { expect, test } from 'bun:test'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import packageJson from '../package.json'

test('the README names the Node.js version package.json requires', async () => {
	const readme = await readFile(join(import.meta.dir, '..', 'README.md'), 'utf8')
	const named = readme.match(/Requires Node\.js (\d+\.\d+) or newer/)?.[1]
	expect(named).toBeDefined()
	expect(packageJson.engines.node).toBe(`>=${named}`)
})
