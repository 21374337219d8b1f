/**
 * Dependencies point down (docs/architecture.md, "Layers"): every import of a file under src/ must
 * stay within what its layer may use, and the browser sources under assets/ may take only types
 * from src/. A new import that breaks a rule fails here, naming the file and the import.
 */
import { describe, expect, it } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = resolve(import.meta.dir, '..')

/**
 * What each layer of src/ may import besides itself and the leaves every layer may use
 * (`src/cli-error.ts`, `package.json`). Packages from node_modules and the prebuilt files under
 * vendor/ are third-party code, not checked.
 */
const allowed: Record<string, readonly string[]> = {
	client: [],
	store: [],
	server: ['client'],
	simulator: ['server'],
	demo: ['client', 'simulator'],
	agent: ['client', 'server', 'demo'],
	jobs: ['client', 'server', 'store', 'demo'],
	session: ['client', 'server'],
	watch: ['client', 'server', 'store', 'demo', 'jobs'],
	playground: ['agent', 'client', 'server', 'demo', 'jobs', 'session', 'watch', 'store', 'assets'],
	agentweb: ['agent', 'client', 'server', 'demo', 'session', 'assets'],
	mcp: ['agent', 'client', 'server', 'demo', 'jobs', 'store', 'watch'],
	main: [
		'agent',
		'agentweb',
		'mcp',
		'playground',
		'simulator',
		'client',
		'server',
		'demo',
		'jobs',
		'session',
		'watch',
		'store'
	],
	'cli-error': []
}
const leaves = new Set(['cli-error', 'package', 'vendor'])

/** One import of a source file. */
interface ImportRef {
	specifier: string
	typeOnly: boolean
}

/** The imports and re-exports of TypeScript source, static and dynamic. */
export function importsOf(source: string): ImportRef[] {
	const found: ImportRef[] = []
	const statement = /^\s*(import|export)\s+(type\s+)?(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm
	for (const match of source.matchAll(statement)) {
		found.push({ specifier: match[3], typeOnly: match[2] !== undefined })
	}
	for (const match of source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) {
		found.push({ specifier: match[1], typeOnly: false })
	}
	return found
}

/** The layer of a path relative to the repository: `src/client/x.ts` is `client`, `src/demo.ts` is `demo`. */
export function layerOf(path: string): string {
	const parts = path.split('/')
	if (parts[0] === 'src') return parts.length === 2 ? parts[1].replace(/\.(d\.)?ts$/, '') : parts[1]
	if (parts[0] === 'package.json') return 'package'
	return parts[0]
}

/** Rule breaks of one file (path relative to the repository) with the given source. */
export function violationsOf(path: string, source: string): string[] {
	const from = layerOf(path)
	const problems: string[] = []
	for (const { specifier, typeOnly } of importsOf(source)) {
		if (!specifier.startsWith('.')) continue
		const target = relative(root, resolve(root, dirname(path), specifier))
		if (path.startsWith('assets/')) {
			if (target.startsWith('src/') && !typeOnly)
				problems.push(`${path}: '${specifier}' (assets take only types from src/)`)
			continue
		}
		const to = layerOf(target)
		if (to === from || leaves.has(to)) continue
		if (!allowed[from]?.includes(to)) problems.push(`${path}: '${specifier}' (${from} must not import ${to})`)
	}
	return problems
}

function sourceFiles(directory: string): string[] {
	return readdirSync(join(root, directory), { recursive: true, withFileTypes: true })
		.filter((entry) => entry.isFile() && /\.ts$/.test(entry.name))
		.map((entry) => relative(root, join(entry.parentPath, entry.name)))
}

describe('layers', () => {
	it('every import under src/ and assets/ points down', () => {
		const files = [...sourceFiles('src'), ...sourceFiles('assets')]
		expect(files.length).toBeGreaterThan(100)
		const layers = new Set(files.filter((file) => file.startsWith('src/')).map(layerOf))
		// A new top-level module must be given its place in the table above.
		expect([...layers].filter((layer) => !(layer in allowed))).toEqual([])
		const problems = files.flatMap((file) => violationsOf(file, readFileSync(join(root, file), 'utf8')))
		expect(problems).toEqual([])
	})

	it('docs/architecture.md states the same rules as the table above', () => {
		const document = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8')
		const stated: Record<string, string[]> = {}
		for (const match of document.matchAll(/^\| `([\w.]+?)(?:\/|\.ts)?` +\| [^|]+\| ([^|]+?) +\|$/gm)) {
			const imports = match[2]
			stated[match[1]] =
				imports.startsWith('everything') || imports.startsWith('nothing')
					? []
					: [...imports.matchAll(/`(\w+)`/g)].map((name) => name[1]).toSorted()
		}
		const expected = Object.fromEntries(
			Object.entries(allowed)
				.filter(([layer]) => layer !== 'cli-error')
				.map(([layer, imports]) => [layer, layer === 'main' ? [] : imports.toSorted()])
		)
		expect(stated).toEqual(expected)
	})

	it('catches the imports the rules forbid', () => {
		const cases: [string, string][] = [
			['src/client/client.ts', "import { startSimulator } from '../simulator/server'"],
			['src/client/api/users.ts', "import type { Agent } from '../../agent/agent'"],
			['src/client/x.ts', "export { createPlayground } from '../playground/app'"],
			['src/client/x.ts', "const m = await import('../agentweb/app')"],
			['src/playground/ai.ts', "import {\n\tchatRoutes\n} from '../agentweb/routes/chat'"],
			['src/agentweb/app.ts', "import { ok } from '../playground/envelope'"],
			['src/agent/agent.ts', "import { createPlaygroundApp } from '../playground/app'"],
			['src/simulator/server.ts', "import { InstagramClient } from '../client/client'"],
			['assets/agentweb/main.ts', "import { Agent } from '../../src/agent/agent'"]
		]
		for (const [path, source] of cases) expect(violationsOf(path, source)).toHaveLength(1)
		expect(violationsOf('src/playground/ai.ts', "import { Agent } from '../agent/agent'")).toEqual([])
		expect(
			violationsOf('assets/agentweb/main.ts', "import type { AgentEvent } from '../../src/agent/events'")
		).toEqual([])
	})
})
