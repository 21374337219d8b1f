/**
 * Runs one piece of generated code: asks permission (code_run), then runs it in the sandbox with a
 * bridge to the Instagram client. Each `ig.*` call crosses the bridge as JSON; calls to write
 * methods ask permission (write_call) first, so a denied write never reaches the client. `saveFile`
 * asks permission (file_write) and writes into the output folder.
 */
import type { InstagramClient } from '../client/client'
import { redactValue } from '../client/redact'
import type { MethodSpec } from '../client/registry'
import { type AgentEventListener, emitSafely, eventOutputLimit, type SavedFile, truncateText } from './events'
import { type ConversationFileQuota, FileQuotaError } from './file-quota'
import { FileNameError, type OutputFiles } from './files'
import { approvalTitle, deniedLabel, type PermissionGate, permissionDeniedMessage } from './permissions'
import { runInSandbox, type SandboxResult } from './sandbox'

/** Per-run context: which step and call this is, where events go, where written files are recorded. */
export interface CodeRunContext {
	step: number
	/** Id of the model's tool call (or `block-N` for a fenced block). */
	callId: string
	description?: string
	signal?: AbortSignal
	onEvent?: AgentEventListener
	/** Files written by this run are appended here (the ask's `files`). */
	files: SavedFile[]
}

/** What a run produced, for the model and the ask response. */
export interface CodeRunOutcome {
	/** The run finished without an error (and was allowed). */
	success: boolean
	/** Text for the model: output, return value and error (not yet truncated or marked). */
	output: string
	/** False when permission to run was denied (nothing ran). */
	ran: boolean
	/** What the person denied during this run (`deniedLabel`); empty when nothing was. */
	denied: string[]
}

/** A file `saveFile` was allowed to write but could not (the folder, the disk): `error` says why. */
export interface FailedFileWrite {
	name: string
	/** `cannot write x.txt: the folder output is not writable (permission denied)` (no absolute path). */
	error: string
}

/** Runs code for the agent. */
export type CodeRunner = (code: string, context: CodeRunContext) => Promise<CodeRunOutcome>

/** What the runner needs. */
export interface CodeRunnerOptions {
	client: InstagramClient
	methods: readonly MethodSpec[]
	gate: PermissionGate
	files: OutputFiles
	/** The conversation's file quota; each run takes its own share (see file-quota.ts). */
	quota: ConversationFileQuota
	/** Wall-clock limit per run in ms (the CLI's `--timeout`, default 30000). */
	timeoutMs?: number
	/** Told of each allowed write that failed (not denials, limits or bad names, which the model can fix). */
	onFileError?: (failure: FailedFileWrite) => void
	/**
	 * Methods left out of `methods` on purpose (the writes, read-only): still on `ig`, so calling one
	 * fails saying why (`reason`) instead of with "not a function".
	 */
	withheld?: { paths: readonly string[]; reason: string }
	/**
	 * Takes the agent's own secrets (the configured API key) out of what leaves the sandbox: a saved
	 * file's name and content, and a call's arguments. The person is shown (and approves) the same.
	 */
	redactSecrets?: (text: string) => string
}

/** A signal that fires when either given signal does. */
function anySignal(first: AbortSignal | undefined, second: AbortSignal): AbortSignal {
	return first ? AbortSignal.any([first, second]) : second
}

/**
 * The call's arguments with `signal` in its options (the parameter named `options`, or the one after
 * those the registry lists, which every client method takes as its request options).
 */
function callArguments(spec: MethodSpec, args: readonly unknown[], signal: AbortSignal): unknown[] {
	const named = spec.params.findIndex((param) => param.name === 'options')
	const at = named >= 0 ? named : spec.params.length
	const given = args[at]
	const options = typeof given === 'object' && given !== null && !Array.isArray(given) ? given : {}
	const result = [...args]
	while (result.length < at) result.push(undefined)
	result[at] = { ...options, signal }
	return result
}

/** Bridge values cross as JSON; big integers (should any appear) become strings. */
function toJson(value: unknown): unknown {
	if (value === undefined) return null
	const text = JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? item.toString() : item))
	return text === undefined ? null : JSON.parse(text)
}

/** A bridge value without secrets; walked only when its JSON text shows one. */
function redactResult(value: unknown, redact: (text: string) => string): unknown {
	const text = JSON.stringify(value)
	return text === undefined || redact(text) === text ? value : redactValue(value, redact)
}

/** The whole write call as the person approves it (cards scroll; nothing is cut). */
function describeCall(path: string, args: readonly unknown[]): string {
	const rendered = args.map((arg) => JSON.stringify(arg) ?? 'undefined').join(', ')
	return `ig.${path}(${rendered})`
}

/** Formats a sandbox result as the text the model sees. */
export function formatRunResult(result: SandboxResult): string {
	const parts: string[] = []
	// Each captured line ends in a newline; drop the last one so parts join cleanly.
	const output = result.output.replace(/\n$/, '')
	if (output) parts.push(`Output:\n${output}${result.outputTruncated ? '\n[output truncated]' : ''}`)
	if (result.returnValue !== undefined && result.returnValue !== null) {
		parts.push(
			`Returned: ${truncateText(JSON.stringify(result.returnValue) ?? String(result.returnValue), 4000)}`
		)
	}
	// The sandbox's text may already name the error type ("TypeError: ...").
	if (result.error) parts.push(/^\w*Error\b/.test(result.error) ? result.error : `Error: ${result.error}`)
	if (!parts.length) parts.push('(no output: use console.log to print the values you need)')
	return parts.join('\n')
}

/** Builds the runner used by the run_code tool and the fenced-block fallback. */
export function createCodeRunner(options: CodeRunnerOptions): CodeRunner {
	const byPath = new Map(options.methods.map((spec) => [spec.path, spec]))
	const withheld = new Set(options.withheld?.paths ?? [])
	const methodPaths = [...options.methods.map((spec) => spec.path), ...withheld]
	const client = options.client as unknown as Record<
		string,
		Record<string, (...args: unknown[]) => Promise<unknown>>
	>

	return async (code, context) => {
		// The model's description names the run in one line (see approvalTitle), as the code event does.
		const description = approvalTitle(context.description ?? '') || undefined
		const allowed = await options.gate.check(
			{ kind: 'code_run', title: description ?? 'Run generated code', detail: code },
			{ signal: context.signal, onEvent: context.onEvent }
		)
		// A prompt ended by Ctrl-C (the ask's signal) is a cancellation, not the person's denial.
		const denial = (label: string) => (context.signal?.aborted ? [] : [label])
		if (!allowed) {
			return {
				success: false,
				ran: false,
				output: permissionDeniedMessage({ kind: 'code_run' }),
				denied: denial(deniedLabel({ kind: 'code_run' }))
			}
		}
		const denied: string[] = []
		emitSafely(context.onEvent, {
			type: 'code',
			step: context.step,
			id: context.callId,
			code,
			description
		})
		let callCount = 0
		const runQuota = options.quota.startRun()
		// Ends with the run: an approval still waiting, or a write not yet started, is cancelled.
		const runEnded = new AbortController()
		// When the run's wall-clock limit ends it (the sandbox starts its clock right after this).
		const expiresAt = Date.now() + (options.timeoutMs ?? 30_000)
		const cancelled = () => new Error('saveFile cancelled: the run has ended')
		// Upstream answers and errors may echo the session (a hostile upstream, a proxy's error page);
		// nothing of it may reach the code, and through it the model or the answer.
		const redact = (text: string) => options.client.transport.redact(text)
		const ownSecrets = options.redactSecrets ?? ((text: string) => text)

		const callMethod = async (path: string, given: unknown[]): Promise<unknown> => {
			const args = redactResult(given, ownSecrets) as unknown[]
			if (withheld.has(path)) throw new Error(`ig.${path} is not available: ${options.withheld?.reason}`)
			const spec = byPath.get(path)
			if (!spec) throw new Error(`ig.${path} is not a client method`)
			const id = `${context.callId}:${++callCount}`
			const event = { step: context.step, id, source: 'code' as const, name: path }
			emitSafely(context.onEvent, { type: 'tool_call', ...event, arguments: args })
			if (spec.access === 'write') {
				const writeAllowed = await options.gate.check(
					{
						kind: 'write_call',
						title: `Write call: ${path}`,
						detail: describeCall(path, args),
						method: path,
						args,
						expiresAt
					},
					// Like a file write, a write still waiting when the run ends is cancelled: a late
					// approval must not change the account after the model was told the run failed.
					{
						signal: anySignal(context.signal, runEnded.signal),
						askSignal: context.signal,
						onEvent: context.onEvent
					}
				)
				if (runEnded.signal.aborted) {
					const message = `ig.${path} cancelled: the run has ended`
					emitSafely(context.onEvent, { type: 'tool_result', ...event, success: false, output: message })
					throw new Error(message)
				}
				if (!writeAllowed) {
					const message = permissionDeniedMessage({ kind: 'write_call', method: path })
					const label = denial(deniedLabel({ kind: 'write_call', method: path }))
					denied.push(...label)
					emitSafely(context.onEvent, {
						type: 'tool_result',
						...event,
						success: false,
						output: message,
						denied: label
					})
					throw new Error(message)
				}
			}
			try {
				const method = client[spec.group]?.[spec.name]
				if (typeof method !== 'function') throw new Error(`ig.${path} is not available in this client`)
				// The run's end (cancelled, or over) reaches the call too: a call waiting for the rate
				// limiter's next slot lets it go instead of holding it for a run nobody reads.
				const withSignal = callArguments(spec, args, anySignal(context.signal, runEnded.signal))
				const result = redactResult(toJson(await method.apply(client[spec.group], withSignal)), redact)
				const preview = truncateText(JSON.stringify(result) ?? '', eventOutputLimit)
				emitSafely(context.onEvent, { type: 'tool_result', ...event, success: true, output: preview })
				return result
			} catch (error) {
				if (error instanceof Error) error.message = redact(error.message)
				const message = error instanceof Error ? `${error.name}: ${error.message}` : redact(String(error))
				emitSafely(context.onEvent, { type: 'tool_result', ...event, success: false, output: message })
				throw error instanceof Error ? error : new Error(message)
			}
		}

		const saveFile = async (givenName: string, givenContent: string): Promise<SavedFile> => {
			if (runEnded.signal.aborted) throw cancelled()
			const name = ownSecrets(String(givenName))
			const content = ownSecrets(String(givenContent))
			let planned: { name: string; size: number }
			let release: () => void
			try {
				planned = options.files.plan(name, content)
				release = runQuota.reserve(planned.name, planned.size)
			} catch (error) {
				const known = error instanceof FileNameError || error instanceof FileQuotaError
				throw new Error(known ? error.message : 'invalid file')
			}
			const fileAllowed = await options.gate.check(
				{
					kind: 'file_write',
					title: `Write file ${planned.name}`,
					// The person sees what the file will hold, not only its name.
					detail: `${planned.name} (${planned.size} bytes) in ${options.files.displayPath(options.files.directory)}/\n\n${content}`,
					expiresAt
				},
				{
					signal: anySignal(context.signal, runEnded.signal),
					// The derived signal is new to the server, which finds the ask's browser by its own.
					askSignal: context.signal,
					onEvent: context.onEvent
				}
			)
			if (runEnded.signal.aborted) {
				release()
				throw cancelled()
			}
			if (!fileAllowed) {
				release()
				denied.push(...denial(deniedLabel({ kind: 'file_write', fileName: planned.name })))
				throw new Error(permissionDeniedMessage({ kind: 'file_write' }))
			}
			try {
				const saved = await options.files.save(name, content, runEnded.signal)
				context.files.push(saved)
				return saved
			} catch (error) {
				release()
				if (runEnded.signal.aborted) throw cancelled()
				if (error instanceof FileNameError) throw new Error(error.message)
				// fs errors carry absolute paths: the model and the person get the reason in plain words.
				const message = options.files.writeErrorMessage(planned.name, error)
				try {
					options.onFileError?.({ name: planned.name, error: message })
				} catch {
					// A failing listener must not change what the code sees.
				}
				throw new Error(message)
			}
		}

		const result = await runInSandbox(code, {
			methods: methodPaths,
			callMethod,
			saveFile,
			timeoutMs: options.timeoutMs ?? 30_000,
			signal: context.signal
		}).finally(() => runEnded.abort())
		return { success: result.ok, ran: true, output: formatRunResult(result), denied }
	}
}
