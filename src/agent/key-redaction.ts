/**
 * The configured API key kept out of what the agent shows (docs/api-contract.md, "Security"): a
 * person may type it into a question and a model may repeat it, so answers, errors, code, events and
 * history entries have it replaced by `[redacted]`, in every spelling `redactSecrets` knows (raw,
 * URL-encoded, JSON-escaped). What is sent to the provider keeps the person's own words.
 */
import { redactSecrets, redactValue } from '../client/redact'
import type { AgentEvent, AgentEventListener, AskResponse } from './events'
import type { ProviderConfig } from './providers'

/** Replaces the provider's key in a text; a local runner's placeholder key is no secret and stays. */
export function keyRedactor(
	provider: Pick<ProviderConfig, 'apiKey' | 'keySource'>
): (text: string) => string {
	const key = provider.keySource === 'local' ? null : provider.apiKey
	return (text) => redactSecrets(text, [key])
}

/** A listener that receives each event with the key redacted (walked only when its JSON shows it). */
export function redactingListener(
	listener: AgentEventListener | undefined,
	redact: (text: string) => string
): AgentEventListener | undefined {
	if (!listener) return undefined
	return (event) => {
		const text = JSON.stringify(event)
		listener(redact(text) === text ? event : (redactValue(event, redact) as AgentEvent))
	}
}

/** The response's texts (answer, code, error) with the key redacted. */
export function redactResponse(response: AskResponse, redact: (text: string) => string): AskResponse {
	return {
		...response,
		answer: redact(response.answer),
		code: redact(response.code),
		error: response.error === null ? null : redact(response.error)
	}
}
