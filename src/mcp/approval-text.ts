/**
 * The words of MCP approvals: the question a write asks the user (an elicitation) and the refusals
 * when nobody can be asked (--read-only, or a client without elicitation).
 */
import type { ApprovalRequest, PermissionLevel } from '../agent/permissions'
import { revealInvisible } from '../cli-error'

/** Explains a write refused because the client cannot ask the user; `change` says what it does. */
export function cannotAskMessage(level: PermissionLevel, change: string): string {
	return `Refused: ${change}, and under --permission ${level} smkit asks the user first, but this MCP client does not support elicitation (it cannot ask). Start smkit mcp with --permission full_access to allow writes without asking, or use a client that supports elicitation.`
}

/** Nobody was asked under --read-only: the refusal names the option, not the user. */
export function readOnlyMessage(change: string): string {
	return `Refused: ${change}, and smkit mcp runs with --read-only, which allows no writes (nobody was asked). Start it without --read-only to allow them.`
}

/**
 * What the denied actions of a run_code (`deniedLabel`s: `media.like on the account`, `save file
 * notes.txt`) change: the account, files on this computer, or both.
 */
export function deniedChanges(denied: readonly string[]): string {
	const isFile = (label: string) => /^save (a )?file\b/.test(label)
	const files = denied.some(isFile)
	const account = denied.some((label) => !isFile(label))
	if (files && !account) return 'saving a file writes on this computer'
	if (files) return 'a write call changes the Instagram account and saving a file writes on this computer'
	return 'a write call changes the Instagram account'
}

/**
 * The elicitation asking the user to allow one write. A file from run_code's saveFile is named as
 * the file it is: asked as a change to the Instagram account, the user was told something else
 * than what they allowed.
 */
export function elicitation(request: ApprovalRequest) {
	const file = request.kind === 'file_write'
	const change = file ? 'write a file on this computer' : 'change your Instagram account'
	return {
		mode: 'form' as const,
		// Shown by the client as it is: no character may make it read otherwise than what runs.
		message: `smkit wants to ${change}: ${revealInvisible(request.title)}\n${revealInvisible(request.detail)}\nAllow it?`,
		requestedSchema: {
			type: 'object' as const,
			properties: {
				allow: {
					type: 'boolean' as const,
					title: 'Allow',
					description: file ? 'Allow writing this file' : `Allow ${request.method ?? 'this change'}`,
					default: false
				}
			},
			required: ['allow']
		}
	}
}
