/**
 * Tools the model can call. A tool is `{ name, description, parameters (TypeBox), execute }`
 * (docs/architecture.md, "The agent"); arguments are parsed from the model's JSON and validated with
 * `Value.Check`/`Value.Errors` before `execute` runs, and invalid ones go back to the model as text.
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import type { CodeRunner } from './code-runner'
import type { AgentEventListener, SavedFile } from './events'

/** What a tool returns: text for the model and whether it worked. */
export interface ToolOutcome {
	success: boolean
	output: string
	/** The code this tool ran, if any (the ask response's `code` is the last one). */
	code?: string
	/** What the person denied during the call (see `ToolResultEvent.denied`). */
	denied?: string[]
}

/** Per-call context given to `execute`. */
export interface ToolContext {
	step: number
	callId: string
	signal?: AbortSignal
	onEvent?: AgentEventListener
	/** The ask's written files; tools that write files append here. */
	files: SavedFile[]
}

/** A tool offered to the model. */
export interface AgentTool<Parameters extends TSchema = TSchema> {
	name: string
	description: string
	parameters: Parameters
	execute(args: Static<Parameters>, context: ToolContext): Promise<ToolOutcome>
}

/** Parses and validates a tool call's JSON arguments; the error text is meant for the model. */
export function parseToolArguments<Parameters extends TSchema>(
	tool: AgentTool<Parameters>,
	text: string
): { ok: true; value: Static<Parameters> } | { ok: false; error: string } {
	let value: unknown
	try {
		value = text.trim() ? JSON.parse(text) : {}
	} catch {
		return { ok: false, error: `Invalid arguments for ${tool.name}: not valid JSON.` }
	}
	if (Value.Check(tool.parameters, value)) return { ok: true, value }
	const problems = [...Value.Errors(tool.parameters, value)]
		.slice(0, 5)
		.map((problem) => `${problem.path || '/'}: ${problem.message}`)
	return { ok: false, error: `Invalid arguments for ${tool.name}: ${problems.join('; ')}` }
}

/** Arguments of `run_code`. */
export const RunCodeParameters = Type.Object({
	code: Type.String({
		minLength: 1,
		description:
			'Body of an async JavaScript function. Use `await ig.<group>.<method>(...)`, console.log what you need, `await saveFile(name, content)` to write a file.'
	}),
	description: Type.Optional(Type.String({ description: 'One short line saying what the code does.' }))
})

/** The main tool: runs JavaScript in the sandbox with `ig`, `console.log` and `saveFile`. */
export function createRunCodeTool(runner: CodeRunner): AgentTool<typeof RunCodeParameters> {
	return {
		name: 'run_code',
		description:
			'Run JavaScript (an async function body) in a sandbox with `ig` (the Instagram client), `console.log` and `saveFile(name, content)`. Returns the printed output, the returned value and any error.',
		parameters: RunCodeParameters,
		async execute(args, context) {
			const outcome = await runner(args.code, {
				step: context.step,
				callId: context.callId,
				description: args.description,
				signal: context.signal,
				onEvent: context.onEvent,
				files: context.files
			})
			return {
				success: outcome.success,
				output: outcome.output,
				code: outcome.ran ? args.code : undefined,
				denied: outcome.denied
			}
		}
	}
}
