/**
 * Entry point of a sandbox worker thread (a second entry point of `bun build --compile`, see
 * package.json). It hosts the QuickJS engines and runs one guest at a time, each in a fresh runtime
 * and context, so a CPU-bound guest never blocks the main thread's event loop. Everything the guest
 * may reach on the host (`ig.*`, `saveFile`) is a message to the main thread, which owns the bridge,
 * the call limits, the wall-clock deadline and the abort signal; a stop request from the host
 * arrives through shared memory, which the guest's interrupt handler reads.
 *
 * Nothing here may throw out of a message handler: an uncaught error would end the worker and,
 * with it, the run (the host survives that too, and replaces the worker).
 */
import { messageOf } from './bridge'
import { acquireEngine, releaseEngine, sharedCompiledModule, useCompiledModule } from './engine'
import { OutputBuffer } from './outcome'
import {
	type CallRequest,
	type HostMessage,
	type RunMessage,
	stopReasonOf,
	type WarmMessage,
	type WorkerMessage,
	type WorkerOutcome
} from './protocol'
import { SandboxSession } from './session'

declare const self: Worker

/** The host's control array (slot 0: stop code); a private one until `init` arrives. */
let control = new Int32Array(new SharedArrayBuffer(4))
/** The host already has a compiled module (it sent one, or this worker sent its own). */
let moduleShared = false

/** The run in progress: its id, its session once started, and the calls awaiting replies. */
let current:
	| { runId: number; session?: SandboxSession; pending: Map<number, (reply: string) => void> }
	| undefined
let nextCallId = 0

function send(message: WorkerMessage): void {
	self.postMessage(message)
}

/** After the first engine load, the host gets the compiled module for the workers it starts next. */
async function shareCompiledModule(): Promise<void> {
	if (moduleShared) return
	moduleShared = true
	const module = await sharedCompiledModule()
	if (module) send({ type: 'compiled', module })
}

async function run(message: RunMessage): Promise<void> {
	const { runId, settings } = message
	const pending = new Map<number, (reply: string) => void>()
	current = { runId, pending }
	const output = new OutputBuffer(settings.maxOutputChars)
	let outcome: WorkerOutcome
	let dropped = false
	try {
		const engine = await acquireEngine(settings.memoryLimitBytes)
		await shareCompiledModule()
		const session = new SandboxSession(
			engine,
			settings,
			{
				methods: message.methods,
				canSave: message.canSave,
				deadline: message.deadline,
				stopRequested: () => stopReasonOf(Atomics.load(control, 0)),
				call: (request: CallRequest) =>
					new Promise<string>((resolve) => {
						const callId = nextCallId++
						pending.set(callId, resolve)
						send({ type: 'call', runId, callId, ...request })
					})
			},
			output
		)
		current.session = session
		try {
			outcome = await session.run(message.code)
		} finally {
			session.dispose()
			dropped = !releaseEngine(engine)
		}
	} catch (error) {
		outcome = { ok: false, error: `The sandbox could not start: ${messageOf(error)}` }
	}
	current = undefined
	send({ type: 'done', runId, outcome, output: output.text, outputTruncated: output.truncated })
	// A dropped engine (grown or poisoned) holds up to the memory limit: collect it before the next run.
	if (dropped) Bun.gc(true)
}

async function warm(message: WarmMessage): Promise<void> {
	try {
		releaseEngine(await acquireEngine(message.memoryLimitBytes))
		await shareCompiledModule()
		send({ type: 'warmed', runId: message.runId })
	} catch (error) {
		send({ type: 'warmed', runId: message.runId, error: messageOf(error) })
	}
}

function handle(message: HostMessage): void {
	switch (message.type) {
		case 'init':
			control = new Int32Array(message.control)
			if (message.compiledModule) {
				useCompiledModule(message.compiledModule)
				moduleShared = true
			}
			return
		case 'run':
			void run(message)
			return
		case 'warm':
			void warm(message)
			return
		case 'reply': {
			if (current?.runId !== message.runId) return
			const resolve = current.pending.get(message.callId)
			current.pending.delete(message.callId)
			resolve?.(message.reply)
			return
		}
		case 'stop':
			if (current?.runId === message.runId) current.session?.checkStop()
			return
	}
}

self.onmessage = (event: MessageEvent<HostMessage>) => {
	try {
		handle(event.data)
	} catch {
		// A malformed message from our own host: nothing sensible to answer, and the worker must live.
	}
}

send({ type: 'ready' })
