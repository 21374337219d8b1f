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
 * A short, deterministic summary of dropped turns: the questions asked and the answers given. An
 * earlier summary among them is carried over (not summarised as a question), its acknowledgement skipped.
 */
function summarise(dropped: readonly ConversationMessage[]): string {
	const lines: string[] = []
	for (const message of dropped) {
		if (message.role === 'user' && message.content.startsWith(summaryHeader)) {
			lines.push(...message.content.slice(summaryHeader.length).split('\n').filter(Boolean))
		} else if (isQuestion(message)) {
			lines.push(`- User asked: ${clip(message.content, 160)}`)
		} else if (message.role === 'assistant' && !message.toolCalls?.length && message.content) {
			if (message.content !== summaryAcknowledgement) lines.push(`  Answer: ${clip(message.content, 240)}`)
		}
	}
	let text = lines.join('\n')
	// Oldest lines go first when the summary itself grows too long.
	if (text.length > summaryLimit) text = `...\n${text.slice(text.length - summaryLimit)}`
	return `${summaryHeader}\n${text || '- (tool output only)'}`
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
	if (estimateTokens(conversation) <= budget) return conversation
	const lastUser = conversation.findLastIndex((message) => isQuestion(message))
	const currentStart = Math.max(lastUser, 0)
	const older = conversation.slice(0, currentStart)
	const current = conversation.slice(currentStart)

	// Drop older blocks from the front until the rest fits; keep what remains starting at a user message.
	const blocks = toBlocks(older)
	const dropped: ConversationMessage[] = []
	const currentTokens = estimateTokens(current)
	while (blocks.length) {
		const kept = blocks.flat()
		const summaryCost = dropped.length
			? estimateTokens([{ role: 'user', content: summarise(dropped), timestamp: 0 }]) + 8
			: 0
		if (estimateTokens(kept) + currentTokens + summaryCost <= budget && isQuestion(kept[0])) break
		dropped.push(...(blocks.shift() ?? []))
	}
	const result: ConversationMessage[] = []
	if (dropped.length) {
		const timestamp = 'timestamp' in dropped[0] ? dropped[0].timestamp : 0
		result.push({ role: 'user', content: summarise(dropped), timestamp })
		// Keeps user/assistant alternation for providers that require it (Anthropic).
		result.push({ role: 'assistant', content: summaryAcknowledgement, timestamp })
	}
	result.push(...blocks.flat(), ...current)
	if (estimateTokens(result) <= budget) return result

	// Still too big: blank older outputs of the current turn, oldest first, keeping the pairs.
	const isOutput = (message: ConversationMessage) =>
		message.role === 'tool' || (message.role === 'user' && message.codeResult === true)
	const outputIndexes = result.flatMap((message, index) => (isOutput(message) ? [index] : []))
	outputIndexes.pop()
	for (const index of outputIndexes) {
		const message = result[index]
		if (message.role !== 'tool' && message.role !== 'user') continue
		result[index] = { ...message, content: trimmedOutput }
		if (estimateTokens(result) <= budget) break
	}
	return result
}
