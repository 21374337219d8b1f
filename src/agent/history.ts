/**
 * Keeps a conversation within a token budget (estimated as characters / 4). An assistant message
 * that calls tools and the tool results that answer it form one block that is kept or dropped
 * whole: a tool call is never separated from its result, because providers reject a conversation
 * with a tool result whose call is missing.
 */
import type { ConversationMessage } from './model'

/** Rough token count of one message: characters / 4 plus a small per-message overhead. */
export function estimateMessageTokens(message: ConversationMessage): number {
	let characters = message.content.length
	if (message.role === 'assistant' && message.toolCalls) {
		for (const call of message.toolCalls) characters += call.name.length + call.arguments.length
	}
	return Math.ceil(characters / 4) + 4
}

/** Rough token count of several messages. */
export function estimateTokens(messages: readonly ConversationMessage[]): number {
	return messages.reduce((total, message) => total + estimateMessageTokens(message), 0)
}

/**
 * Splits messages into blocks that must stay together: an assistant tool-call message with the
 * tool messages that follow it, or any other single message.
 */
export function toBlocks(messages: readonly ConversationMessage[]): ConversationMessage[][] {
	const blocks: ConversationMessage[][] = []
	for (const message of messages) {
		const previous = blocks.at(-1)
		const opensWithToolCall = previous?.[0].role === 'assistant' && Boolean(previous[0].toolCalls?.length)
		if (message.role === 'tool' && previous && opensWithToolCall) previous.push(message)
		else blocks.push([message])
	}
	return blocks
}

/** A message the person wrote (not a code-block result the agent fed back). */
function isQuestion(message: ConversationMessage | undefined): boolean {
	return message?.role === 'user' && !message.codeResult
}

const trimmedOutput = '[output removed to keep the conversation short]'
const summaryLimit = 1500

function clip(text: string, limit: number): string {
	const flat = text.replace(/\s+/g, ' ').trim()
	return flat.length > limit ? `${flat.slice(0, limit)}...` : flat
}

const summaryHeader = '[Summary of the earlier conversation, trimmed to save space]'
const summaryAcknowledgement = 'Noted; I will use this summary as context.'

/**
 * The summary's lines for one dropped message: the question asked or the answer given. An earlier
 * summary among them is carried over (not summarised as a question), its acknowledgement skipped.
 */
function summaryLines(message: ConversationMessage): string[] {
	if (message.role === 'user' && message.content.startsWith(summaryHeader)) {
		return message.content.slice(summaryHeader.length).split('\n').filter(Boolean)
	}
	if (isQuestion(message)) return [`- User asked: ${clip(message.content, 160)}`]
	if (message.role === 'assistant' && !message.toolCalls?.length && message.content) {
		if (message.content !== summaryAcknowledgement) return [`  Answer: ${clip(message.content, 240)}`]
	}
	return []
}

/** A short, deterministic summary of dropped turns (`summaryLines` of each). */
function summarise(dropped: readonly ConversationMessage[]): string {
	let text = dropped.flatMap(summaryLines).join('\n')
	// Oldest lines go first when the summary itself grows too long.
	if (text.length > summaryLimit) text = `...\n${text.slice(text.length - summaryLimit)}`
	return `${summaryHeader}\n${text || '- (tool output only)'}`
}

/**
 * Tokens of the summary of dropped lines totalling `characters` (newlines included), as
 * `estimateMessageTokens` counts the summary turn, without writing it: `summarise` cuts it the same way.
 */
function summaryTokens(characters: number): number {
	const text =
		characters === 0
			? '- (tool output only)'.length
			: characters > summaryLimit
				? summaryLimit + 4
				: characters
	return Math.ceil((summaryHeader.length + 1 + text) / 4) + 4
}

/**
 * Returns the conversation (no system messages) fitted into `budget` tokens:
 * 1. whole older turns are dropped (oldest first) and replaced by a short summary turn;
 * 2. if the current turn alone is still too big, older tool outputs in it are blanked (the call and
 *    its result both stay, only the result text shrinks), never the latest one.
 * The current turn starts at the last user message and is always kept.
 */
export function fitHistory(messages: readonly ConversationMessage[], budget: number): ConversationMessage[] {
	const conversation = messages.filter((message) => message.role !== 'system')
	// Sizes are counted once and kept up to date as turns are dropped and outputs blanked: counting
	// the whole conversation again after each change is quadratic in its length.
	let total = estimateTokens(conversation)
	if (total <= budget) return conversation
	const lastUser = conversation.findLastIndex((message) => isQuestion(message))
	const currentStart = Math.max(lastUser, 0)
	const older = conversation.slice(0, currentStart)
	const current = conversation.slice(currentStart)

	// Drop older blocks from the front until the rest fits; keep what remains starting at a user message.
	const blocks = toBlocks(older)
	const dropped: ConversationMessage[] = []
	const currentTokens = estimateTokens(current)
	let keptTokens = estimateTokens(older)
	// Characters of the summary's lines so far, newlines between them included.
	let summaryCharacters = 0
	let first = 0
	while (first < blocks.length) {
		const summaryCost = dropped.length ? summaryTokens(summaryCharacters) + 8 : 0
		if (keptTokens + currentTokens + summaryCost <= budget && isQuestion(blocks[first][0])) break
		for (const message of blocks[first]) {
			keptTokens -= estimateMessageTokens(message)
			for (const line of summaryLines(message)) summaryCharacters += (summaryCharacters ? 1 : 0) + line.length
			dropped.push(message)
		}
		first++
	}
	const result: ConversationMessage[] = []
	if (dropped.length) {
		const timestamp = 'timestamp' in dropped[0] ? dropped[0].timestamp : 0
		result.push({ role: 'user', content: summarise(dropped), timestamp })
		// Keeps user/assistant alternation for providers that require it (Anthropic).
		result.push({ role: 'assistant', content: summaryAcknowledgement, timestamp })
	}
	result.push(...blocks.slice(first).flat(), ...current)
	total = estimateTokens(result)
	if (total <= budget) return result

	// Still too big: blank older outputs of the current turn, oldest first, keeping the pairs.
	const isOutput = (message: ConversationMessage) =>
		message.role === 'tool' || (message.role === 'user' && message.codeResult === true)
	const outputIndexes = result.flatMap((message, index) => (isOutput(message) ? [index] : []))
	outputIndexes.pop()
	for (const index of outputIndexes) {
		const message = result[index]
		if (message.role !== 'tool' && message.role !== 'user') continue
		const blanked = { ...message, content: trimmedOutput }
		total += estimateMessageTokens(blanked) - estimateMessageTokens(message)
		result[index] = blanked
		if (total <= budget) break
	}
	return result
}
