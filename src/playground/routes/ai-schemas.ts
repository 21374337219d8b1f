/**
 * Schemas of the playground's AI routes (`/api/ai/*`) for the OpenAPI document: the request
 * bodies, the AI ask response, the agent's server-sent events and the conversation history. The
 * routes check their bodies with the chat API's own schemas (src/agent/chat/requests.ts); these say
 * the same rules for clients, with titles and examples. Lengths are in characters (Unicode code
 * points), the question's counted once trimmed, as the route trims it before asking.
 */
import { t } from 'elysia'
import { maxMessageChars } from '../../agent/chat/requests'
import { Text, TrimmedText } from '../../server/text-length'
import { documented, documentedContent } from './docs'

/** `POST /api/ai/ask` and `/api/ai/ask/stream` body. */
export const AskRequest = t.Object(
	{
		message: TrimmedText({
			minLength: 1,
			pattern: '\\S',
			maxLength: maxMessageChars,
			description: `The question (1-${maxMessageChars} characters once trimmed: surrounding white space is not counted)`,
			examples: ["Which of luna.explorer's last 12 posts has the most likes?"]
		})
	},
	{ title: 'AskRequest' }
)

/** `POST /api/ai/approve` body. */
export const ApprovalDecision = t.Object(
	{
		id: Text({
			minLength: 1,
			maxLength: 200,
			description: "The permission event's id",
			examples: ['0b5e7c1e-7f4a-4e0e-9a51-2f3c8d1e6a90']
		}),
		allow: t.Boolean({ description: 'true approves the action, false denies it', examples: [true] })
	},
	{ title: 'ApprovalDecision' }
)

const SavedFileSchema = t.Object(
	{
		name: t.String(),
		file: t.String({ description: 'Path relative to the working directory' }),
		size: t.Integer({ minimum: 0, description: 'Bytes' })
	},
	{ title: 'AgentFile' }
)

const askResponseFields = {
	success: t.Boolean(),
	answer: t.String({ description: "The agent's answer; on failure the best partial answer (may be empty)" }),
	code: t.String({ description: "The last code run in this ask ('' when none ran)" }),
	files: t.Array(SavedFileSchema, { description: 'Files written by saveFile during this ask' }),
	steps: t.Integer({ minimum: 0, description: 'Model calls made' }),
	tokens: t.Integer({ minimum: 0, description: 'Tokens used by this ask' }),
	duration: t.Number({ minimum: 0, description: 'Wall-clock seconds' }),
	error: t.Union([t.String(), t.Null()], { description: 'null on success; otherwise what went wrong' })
}

/** The AI ask response (`POST /api/ai/ask`), with the envelope's `timestamp`. */
export const AskResponse = t.Object(
	{ ...askResponseFields, timestamp: t.Number({ description: 'Seconds since the epoch, fractional' }) },
	{ title: 'AskResponse' }
)

const step = t.Integer({ minimum: 0 })
const source = t.Union([t.Literal('model'), t.Literal('code')])

/** One event of `POST /api/ai/ask/stream`: the JSON of a `data:` line. */
export const AgentEvent = t.Union(
	[
		t.Object({
			type: t.Literal('status'),
			message: t.String(),
			permission_id: t.Optional(t.String({ description: 'Set when the status reports a decision' })),
			outcome: t.Optional(
				t.Union([t.Literal('approved'), t.Literal('denied'), t.Literal('timed_out'), t.Literal('cancelled')])
			)
		}),
		t.Object({ type: t.Literal('step'), step, maxSteps: t.Integer({ minimum: 1 }), message: t.String() }),
		t.Object({
			type: t.Literal('code'),
			step,
			id: t.String(),
			code: t.String(),
			description: t.Optional(t.String())
		}),
		t.Object({
			type: t.Literal('tool_call'),
			step,
			id: t.String(),
			source,
			name: t.String(),
			arguments: t.Unknown()
		}),
		t.Object({
			type: t.Literal('tool_result'),
			step,
			id: t.String(),
			source,
			name: t.String(),
			success: t.Boolean(),
			output: t.String({ description: 'Capped at 2000 characters' })
		}),
		t.Object({
			type: t.Literal('permission'),
			id: t.String({ description: 'Post it back to /api/ai/approve' }),
			kind: t.Union([t.Literal('code_run'), t.Literal('write_call'), t.Literal('file_write')]),
			title: t.String(),
			detail: t.String(),
			method: t.Optional(t.String()),
			args: t.Optional(t.Array(t.Unknown())),
			timeout_seconds: t.Optional(t.Number({ minimum: 0, description: 'No decision within it denies' }))
		}),
		t.Object({ type: t.Literal('error'), message: t.String() }),
		t.Object({ type: t.Literal('done'), ...askResponseFields })
	],
	{ description: 'An agent event; the stream ends with `done`' }
)

/** One message of the conversation. */
const ChatHistoryEntry = t.Object(
	{
		role: t.Union([t.Literal('user'), t.Literal('assistant'), t.Literal('tool')]),
		content: t.String(),
		timestamp: t.Number({ description: 'Seconds since the epoch' }),
		success: t.Optional(
			t.Boolean({ description: 'Tool outputs only: false when the call failed, was denied or was stopped' })
		)
	},
	{ title: 'ChatHistoryEntry' }
)

const available = 'Answers 503 `ai_unavailable` when no AI provider is configured.'

/** Route options documenting each AI route (shared by the real routes and the 503 stand-ins). */
export const aiDocs = {
	ask: documentedContent(
		'AI',
		'Ask the agent',
		{
			description: 'The AI ask response (success false when the agent could not answer)',
			mediaType: 'application/json',
			schema: AskResponse
		},
		{
			body: AskRequest,
			errors: ['ai_unavailable'],
			description:
				'Asks the agent and waits for its answer. Actions that need approval are denied here ' +
				'(use the stream, which asks in the browser), unless the playground runs with ' +
				`--permission full_access. ${available}`
		}
	),
	stream: documentedContent(
		'AI',
		'Ask the agent, streaming its steps',
		{
			description: 'Server-sent events, one `data: <AgentEvent JSON>` each, ending with `done`',
			mediaType: 'text/event-stream',
			schema: t.String({ description: 'data: lines of AgentEvent JSON; comment lines keep the stream open' }),
			eventSchema: AgentEvent
		},
		{
			body: AskRequest,
			errors: ['ai_unavailable'],
			description:
				'Asks the agent and streams what it does. A `permission` event waits for a decision ' +
				`posted to /api/ai/approve. ${available}`
		}
	),
	approve: documented(
		'AI',
		'Approve or deny an action',
		t.Object({ id: t.String(), allow: t.Boolean() }, { title: 'ApprovalResult' }),
		{
			body: ApprovalDecision,
			errors: ['not_found', 'ai_unavailable'],
			description: `Decides a waiting permission event; 404 when none with this id waits. ${available}`
		}
	),
	reset: documented(
		'AI',
		'Start a new conversation',
		t.Object({ reset: t.Literal(true) }, { title: 'ResetResult' }),
		{
			errors: ['bad_request', 'ai_unavailable'],
			description: `Forgets the conversation and its remembered approvals. ${available}`
		}
	),
	history: documented('AI', 'The conversation so far', t.Array(ChatHistoryEntry), {
		errors: ['ai_unavailable'],
		description: `Messages of the current conversation, oldest first. ${available}`
	})
}
