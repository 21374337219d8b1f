/**
 * Request bodies of the chat endpoints (both servers) as schemas: they validate each body before
 * the handler runs and describe it in the API reference. A failed check is a 400 whose message
 * says exactly what is wrong, naming the field and the limit; the same function explains every
 * part of a body, so the message does not depend on which part the validator reached first.
 * Lengths are in characters (Unicode code points: an emoji is one), a question's once trimmed, as
 * the handlers trim it; text with an unpaired UTF-16 surrogate is refused (server/text-length.ts).
 */
import { t } from 'elysia'
import { HttpError } from '../../server/envelope'
import { characterCount, Text, TrimmedText } from '../../server/text-length'
import { maxParallelTasks } from '../parallel'

/** Longest question accepted, in characters (code points) once trimmed. */
export const maxMessageChars = 8000

const notAnObject = 'Invalid body: expected a JSON object'

/** The refusal of text that is not Unicode text (see `characterCount`). */
const notText = (what: string) => `${what} is not valid text: it holds an unpaired UTF-16 surrogate`

function fieldsOf(body: unknown): Record<string, unknown> | undefined {
	return typeof body === 'object' && body !== null && !Array.isArray(body)
		? (body as Record<string, unknown>)
		: undefined
}

/** Why an ask body `{ message }` is invalid. */
export function askBodyProblem(body: unknown): string {
	const fields = fieldsOf(body)
	if (!fields) return notAnObject
	const { message } = fields
	if (message === undefined) return "Missing body field 'message' (the question)"
	if (typeof message !== 'string') return "Body field 'message' must be a string"
	const length = characterCount(message.trim())
	if (length < 0) return notText('Message')
	if (length === 0) return 'Message is empty'
	if (length > maxMessageChars)
		return `Message is too long: ${length} characters (at most ${maxMessageChars})`
	return 'Invalid body'
}

/** Why a parallel body `{ tasks }` is invalid. */
export function tasksBodyProblem(body: unknown): string {
	const fields = fieldsOf(body)
	if (!fields) return notAnObject
	const { tasks } = fields
	if (!Array.isArray(tasks)) return "Body field 'tasks' must be an array of questions"
	if (tasks.length === 0) return 'Give at least one task'
	if (tasks.length > maxParallelTasks)
		return `Too many tasks: ${tasks.length} (at most ${maxParallelTasks} per request)`
	for (const [index, task] of tasks.entries()) {
		const length = typeof task === 'string' ? characterCount(task.trim()) : 0
		if (length < 0) return notText(`Task ${index + 1}`)
		if (length === 0) return `Task ${index + 1} is empty or not a string`
		if (length > maxMessageChars)
			return `Task ${index + 1} is too long (at most ${maxMessageChars} characters)`
	}
	return 'Invalid body'
}

/** Why an approval body `{ id, allow }` is invalid. */
export function approvalBodyProblem(body: unknown): string {
	const fields = fieldsOf(body)
	if (!fields) return notAnObject
	const { id, allow } = fields
	const length = typeof id === 'string' ? characterCount(id) : 0
	if (length < 1 || length > 200) return "Body field 'id' must be the permission request's id"
	if (typeof allow !== 'boolean') return "Body field 'allow' must be true or false"
	return 'Invalid body'
}

/**
 * A route's `transform` hook: a body that is not a JSON object is a 400 before validation (the
 * validator would read an array as an object with no fields and report a missing field).
 */
export function requireObjectBody({ body }: { body: unknown }): void {
	if (!fieldsOf(body)) throw new HttpError('bad_request', notAnObject)
	// The validator describes a wrong value by walking it recursively: 20,000 nested arrays in
	// `message` overflowed its stack (a 500). No chat body nests: deep ones are refused first.
	if (nestedDeeperThan(body, MAX_BODY_DEPTH))
		throw new HttpError('bad_request', `Invalid body: nested more than ${MAX_BODY_DEPTH} levels deep`)
}

/** How deep a chat body may nest (its fields are text, a boolean, or a list of texts). */
const MAX_BODY_DEPTH = 32

/** Whether `value` holds arrays or objects more than `limit` levels deep; walked without recursion. */
function nestedDeeperThan(value: unknown, limit: number): boolean {
	const pending: [unknown, number][] = [[value, 0]]
	while (pending.length > 0) {
		const [item, depth] = pending.pop() as [unknown, number]
		if (item === null || typeof item !== 'object') continue
		if (depth >= limit) return true
		for (const child of Object.values(item)) pending.push([child, depth + 1])
	}
	return false
}

/** The validator's custom message: `problem` applied to the whole body. */
const explainedBy = (problem: (body: unknown) => string) => ({
	error: ({ value }: { value: unknown }) => problem(value)
})

const question = (description: string, problem: (body: unknown) => string) =>
	TrimmedText({
		minLength: 1,
		maxLength: maxMessageChars,
		pattern: '\\S',
		description,
		...explainedBy(problem)
	})

/** `{ message }`: the question, 1-8000 characters once trimmed. */
export const AskBody = t.Object(
	{ message: question(`The question (1-${maxMessageChars} characters once trimmed)`, askBodyProblem) },
	explainedBy(askBodyProblem)
)

/** `{ tasks }`: 1-10 questions, each 1-8000 characters once trimmed. */
export const TasksBody = t.Object(
	{
		tasks: t.Array(question(`One task (1-${maxMessageChars} characters once trimmed)`, tasksBodyProblem), {
			minItems: 1,
			maxItems: maxParallelTasks,
			description: 'Questions run in parallel, each in its own conversation',
			...explainedBy(tasksBodyProblem)
		})
	},
	explainedBy(tasksBodyProblem)
)

/** `{ id, allow }`: the permission request's id and the decision. */
export const ApprovalBody = t.Object(
	{
		id: Text({
			minLength: 1,
			maxLength: 200,
			description: "The `permission` event's id",
			...explainedBy(approvalBodyProblem)
		}),
		allow: t.Boolean({ description: 'true approves, false denies', ...explainedBy(approvalBodyProblem) })
	},
	explainedBy(approvalBodyProblem)
)
