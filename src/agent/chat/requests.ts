/**
 * Request bodies of the chat endpoints (both servers), checked by hand so each failure says
 * exactly what is wrong: a 400 `HttpError` whose message names the field and the limit.
 */

import { HttpError } from '../../server/envelope'
import { maxParallelTasks } from '../parallel'

/** Longest question accepted, in characters. */
export const maxMessageChars = 8000

function objectBody(body: unknown): Record<string, unknown> {
	if (typeof body !== 'object' || body === null || Array.isArray(body)) {
		throw new HttpError('bad_request', 'Invalid body: expected a JSON object')
	}
	return body as Record<string, unknown>
}

/** `{ message }`: a string of 1-8000 characters once trimmed; returns it trimmed. */
export function readAskMessage(body: unknown): string {
	const { message } = objectBody(body)
	if (message === undefined) throw new HttpError('bad_request', "Missing body field 'message' (the question)")
	if (typeof message !== 'string') throw new HttpError('bad_request', "Body field 'message' must be a string")
	const question = message.trim()
	if (question === '') throw new HttpError('bad_request', 'Message is empty')
	if (question.length > maxMessageChars) {
		throw new HttpError(
			'bad_request',
			`Message is too long: ${question.length} characters (at most ${maxMessageChars})`
		)
	}
	return question
}

/** `{ tasks }`: 1-10 questions, each a non-empty string of at most 8000 characters. */
export function readTasks(body: unknown): string[] {
	const { tasks } = objectBody(body)
	if (!Array.isArray(tasks)) {
		throw new HttpError('bad_request', "Body field 'tasks' must be an array of questions")
	}
	if (tasks.length === 0) throw new HttpError('bad_request', 'Give at least one task')
	if (tasks.length > maxParallelTasks) {
		throw new HttpError(
			'bad_request',
			`Too many tasks: ${tasks.length} (at most ${maxParallelTasks} run in parallel)`
		)
	}
	return tasks.map((task, index) => {
		if (typeof task !== 'string' || task.trim() === '') {
			throw new HttpError('bad_request', `Task ${index + 1} is empty or not a string`)
		}
		if (task.trim().length > maxMessageChars) {
			throw new HttpError(
				'bad_request',
				`Task ${index + 1} is too long (at most ${maxMessageChars} characters)`
			)
		}
		return task.trim()
	})
}

/** `{ id, allow }`: the permission request's id and the decision. */
export function readApproval(body: unknown): { id: string; allow: boolean } {
	const { id, allow } = objectBody(body)
	if (typeof id !== 'string' || id === '' || id.length > 200) {
		throw new HttpError('bad_request', "Body field 'id' must be the permission request's id")
	}
	if (typeof allow !== 'boolean')
		throw new HttpError('bad_request', "Body field 'allow' must be true or false")
	return { id, allow }
}
