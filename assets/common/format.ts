/** Number formats both pages share. */

/** Bytes as `512 B`, `3.4 KB`, `1.2 MB` (1024 based); not a size as an em dash. */
export function formatBytes(bytes: number): string {
	if (!Number.isFinite(bytes) || bytes < 0) return '—'
	if (bytes < 1024) return `${bytes} B`
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

/** An ask's footer: `2 steps · 1,234 tokens · 1.3 s`. */
export function formatMeta(steps: number, tokens: number, seconds: number): string {
	const stepText = `${steps} step${steps === 1 ? '' : 's'}`
	return `${stepText} · ${tokens.toLocaleString('en')} tokens · ${seconds.toFixed(1)} s`
}
