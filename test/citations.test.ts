/**
 * Comments cite documents a maintainer of this repository can open: the files under docs/, or the
 * rule itself. A citation of a document kept outside the repository (the specification, design and
 * style notes the project started from, its notes on the upstream project, or that project itself)
 * fails here with the file and line, as a new one appears.
 */
import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')

/** The outside documents' names as they were cited; the brackets keep this file from matching itself. */
export const OUTSIDE_CITATION = /S[P]EC|D[E]SIGN|S[T]YLE|upstream-[f]acts|the [o]riginal/

/** `path:line: text` of every line of `source` that cites an outside document. */
export function citationsIn(path: string, source: string): string[] {
	return source
		.split('\n')
		.flatMap((line, index) => (OUTSIDE_CITATION.test(line) ? [`${path}:${index + 1}: ${line.trim()}`] : []))
}

function filesUnder(directory: string): string[] {
	return readdirSync(join(root, directory), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile())
		.map((entry) => relative(root, join(entry.parentPath, entry.name)))
}

describe('citations', () => {
	it('src, assets and test cite only documents inside the repository', () => {
		const files = ['src', 'assets', 'test'].flatMap(filesUnder)
		expect(files.length).toBeGreaterThan(200)
		const found = files.flatMap((file) => citationsIn(file, readFileSync(join(root, file), 'utf8')))
		expect(found).toEqual([])
	})

	it('catches the ways they were cited', () => {
		// Split so that this file does not match itself.
		for (const line of [
			'/** Body limits (DE' + 'SIGN 4): 1 MiB */',
			' * (SP' + 'EC.md section 4)',
			'// ST' + 'YLE gotchas',
			' * (reference/upstream-' + 'facts.md section 4)',
			'// the ' + 'original let any page through'
		])
			expect(citationsIn('src/x.ts', line)).toHaveLength(1)
		expect(citationsIn('src/x.ts', '/** Body limits (docs/api-contract.md, "Limits") */')).toEqual([])
	})
})
