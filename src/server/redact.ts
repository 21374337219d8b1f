/**
 * The one redaction of secrets from text bound for a log line or a message: cookie values of the
 * Instagram session, bearer and access tokens, key-like values, AI provider keys (and the partial
 * keys providers echo), plus any known secret values the caller passes, in every encoding they
 * travel in (see src/client/redact.ts).
 */
import { redactSecrets as redactKnownSecrets } from '../client/redact'

const secretPatterns: [RegExp, string][] = [
	[/(sessionid|csrftoken|ds_user_id|mid|ig_did|datr|rur)=[^;\s&"']+/gi, '$1=[redacted]'],
	[/(authorization:?\s*bearer\s+)[^\s"']+/gi, '$1[redacted]'],
	[/([?&]token=)[^&\s"']+/gi, '$1[redacted]'],
	[/((?:api[_-]?key|x-csrftoken|x-ig-www-claim)["':=\s]+)[^\s"',;]+/gi, '$1[redacted]'],
	// Providers echo partial keys ("Incorrect API key provided: sk-ab***yz").
	[/\b(sk|gsk|xai|AIza)[-_A-Za-z0-9*.]{6,}/g, '[redacted]']
]

/** Removes `knownSecrets` (values of 4 characters or more, in any encoding) and anything secret-shaped from `text`. */
export function redactSecrets(
	text: string,
	knownSecrets: readonly (string | null | undefined)[] = []
): string {
	const result = redactKnownSecrets(text, knownSecrets)
	return secretPatterns.reduce(
		(current, [pattern, replacement]) => current.replace(pattern, replacement),
		result
	)
}
