/**
 * Child process of the resource-attack tests: polls `<origin>/api/status` one request at a time,
 * every 20 ms, until its standard input closes, then prints `{ slowestMs, polls, failures }` as
 * JSON. A process of its own, so the latency it sees is the server's, not the test runner's pauses.
 */
const [target] = process.argv.slice(2)
if (!target) throw new Error('usage: bun status-watch.ts <origin>')

let stopped = false
void (async () => {
	const reader = Bun.stdin.stream().getReader()
	// Nothing is sent; the stream ends when the parent closes it.
	while (!(await reader.read()).done) {}
	stopped = true
})()

let slowestMs = 0
let polls = 0
let failures = 0
while (!stopped) {
	const started = performance.now()
	try {
		const response = await fetch(`${target}/api/status`)
		await response.arrayBuffer()
		if (response.status !== 200) failures++
	} catch {
		failures++
	}
	slowestMs = Math.max(slowestMs, performance.now() - started)
	polls++
	await Bun.sleep(20)
}
console.log(JSON.stringify({ slowestMs, polls, failures }))

export {}
