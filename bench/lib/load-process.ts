/**
 * The bench's side of the load generator: one load-worker process (load-worker.ts) that takes jobs
 * on stdin and answers each with a line of results.
 */
import path from 'node:path'
import type { LoadResult } from './load'
import type { LoadJob } from './load-worker'
import { ROOT } from './processes'

/** Yields the lines of a stream as they come. */
async function* linesOf(stream: ReadableStream<Uint8Array>): AsyncGenerator<string> {
	const decoder = new TextDecoder()
	let buffered = ''
	const reader = stream.getReader()
	for (;;) {
		const { done, value } = await reader.read()
		if (done) return
		buffered += decoder.decode(value, { stream: true })
		let end = buffered.indexOf('\n')
		while (end >= 0) {
			yield buffered.slice(0, end)
			buffered = buffered.slice(end + 1)
			end = buffered.indexOf('\n')
		}
	}
}

/**
 * One load-worker process for the whole section (jobs in on stdin, a line of results out per job),
 * so its own code, and reference (a)'s client with it, stays as warm from round to round as the
 * servers under test.
 */
export function startLoadWorker() {
	const worker = Bun.spawn([process.execPath, path.join(ROOT, 'bench/lib/load-worker.ts')], {
		cwd: ROOT,
		stdin: 'pipe',
		stdout: 'pipe',
		stderr: 'pipe'
	})
	const lines = linesOf(worker.stdout)
	return {
		async run(job: LoadJob): Promise<Record<string, LoadResult>> {
			worker.stdin.write(`${JSON.stringify(job)}\n`)
			await worker.stdin.flush()
			const line = await lines.next()
			if (line.done) {
				const errors = await new Response(worker.stderr).text()
				throw new Error(`load worker failed (exit ${await worker.exited}): ${errors.trim()}`)
			}
			return JSON.parse(line.value) as Record<string, LoadResult>
		},
		async close(): Promise<void> {
			await worker.stdin.end()
			await worker.exited
		}
	}
}
