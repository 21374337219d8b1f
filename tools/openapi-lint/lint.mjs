#!/usr/bin/env node
/**
 * Lints the OpenAPI document the playground serves with Redocly CLI (recommended rules) and
 * Spectral (spectral:oas), failing on any error. The document is fetched from the compiled binary
 * (`./smkit playground --demo --port 0`), exactly as a client generator would fetch it; pass a
 * file path instead to lint a saved document. Telemetry and update checks are switched off.
 *
 *   npm install --prefix tools/openapi-lint && npm run build && npm run lint:openapi
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const here = path.dirname(fileURLToPath(import.meta.url))
const root = path.resolve(here, '../..')
const bin = (name) => path.join(here, 'node_modules', '.bin', name)
const quiet = {
	...process.env,
	REDOCLY_TELEMETRY: 'off',
	REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
	SCARF_ANALYTICS: 'false',
	NO_UPDATE_NOTIFIER: '1'
}

/** Starts the binary on demo data, returns the served document's text, stops the binary. */
async function fetchServedDocument(workDir) {
	writeFileSync(path.join(workDir, 'empty.env'), '')
	const args = ['playground', '--demo', '--port', '0', '--env', 'empty.env', '--saved-dir', 'saved']
	const child = spawn(path.join(root, 'smkit'), args, { cwd: workDir, stdio: ['ignore', 'pipe', 'inherit'] })
	try {
		const url = await new Promise((resolve, reject) => {
			let output = ''
			const timer = setTimeout(() => reject(new Error(`no start-up line in 30 s: ${output}`)), 30_000)
			child.on('exit', (code) => reject(new Error(`smkit exited (${code}) before serving: ${output}`)))
			child.stdout.on('data', (chunk) => {
				output += chunk
				const match = /smkit playground: (http:\/\/\S+\/)/.exec(output)
				if (match) {
					clearTimeout(timer)
					resolve(match[1])
				}
			})
		})
		const response = await fetch(`${url}openapi/json`)
		if (!response.ok) throw new Error(`GET ${url}openapi/json answered ${response.status}`)
		return await response.text()
	} finally {
		child.kill('SIGTERM')
	}
}

function run(title, command, args) {
	console.log(`\n== ${title}`)
	const result = spawnSync(command, args, { cwd: here, env: quiet, stdio: 'inherit' })
	if (result.error) throw result.error
	return result.status === 0
}

const workDir = mkdtempSync(path.join(tmpdir(), 'smkit-openapi-lint-'))
try {
	let documentPath = process.argv[2] ? path.resolve(process.argv[2]) : undefined
	if (!documentPath) {
		documentPath = path.join(workDir, 'openapi.json')
		writeFileSync(documentPath, await fetchServedDocument(workDir))
		console.log('Linting the document served by ./smkit playground --demo (/openapi/json)')
	}
	const redocly = run('Redocly CLI lint (recommended rules)', bin('redocly'), [
		'lint',
		documentPath,
		'--config',
		path.join(here, 'redocly.yaml'),
		'--format',
		'stylish'
	])
	const spectral = run('Spectral lint (spectral:oas)', bin('spectral'), [
		'lint',
		documentPath,
		'--ruleset',
		path.join(here, '.spectral.yaml'),
		'--fail-severity',
		'error'
	])
	console.log(
		`\nopenapi lint: redocly ${redocly ? 'no errors' : 'ERRORS'}, spectral ${spectral ? 'no errors' : 'ERRORS'}`
	)
	process.exitCode = redocly && spectral ? 0 : 1
} finally {
	rmSync(workDir, { recursive: true, force: true })
}
