/**
 * The two pages (playground and agent web) share their basics under assets/common/: one DOM
 * builder (`h` in dom.ts), one request helper for the access token and JSON bodies (request.ts),
 * and one `formatBytes` (format.ts). A second copy of any of them fails here.
 */
import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '../..')
const sources = readdirSync(join(root, 'assets'), { recursive: true, withFileTypes: true })
	.filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
	.map((entry) => {
		const path = relative(root, join(entry.parentPath, entry.name))
		return { path, text: readFileSync(join(root, path), 'utf8') }
	})

/** Files whose code (not comments) matches `pattern`. */
function filesMatching(pattern: RegExp): string[] {
	return sources
		.filter(({ text }) => pattern.test(text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')))
		.map(({ path }) => path)
}

describe('shared UI basics', () => {
	it('one DOM builder creates elements', () => {
		expect(filesMatching(/\bcreateElement(NS)?\(/)).toEqual(['assets/common/dom.ts'])
	})

	it('one helper reads the access token and sets Authorization', () => {
		expect(filesMatching(/location\.search|Authorization/)).toEqual(['assets/common/request.ts'])
	})

	it('one formatBytes', () => {
		expect(filesMatching(/function formatBytes\b/)).toEqual(['assets/common/format.ts'])
	})

	it('the chat reads the typed agent events (type-only import)', () => {
		const chatApi = sources.find(({ path }) => path === 'assets/common/chat/api.ts')!.text
		expect(chatApi).toContain("import type { AgentEvent } from '../../../src/agent/events'")
		expect(filesMatching(/Number\(event\./)).toEqual([])
	})
})
