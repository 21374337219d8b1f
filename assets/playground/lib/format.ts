/** Small formatting helpers shared by the panels. */

const integer = new Intl.NumberFormat('en-US')

/** A count with thousands separators; non-numbers as an em dash. */
export function formatCount(value: unknown): string {
	return typeof value === 'number' && Number.isFinite(value) ? integer.format(value) : '—'
}

/** A count and its noun: "1 item", "1,200 items" (`pluralNoun` for irregular plurals). */
export function formatQuantity(count: number, noun: string, pluralNoun = `${noun}s`): string {
	return `${formatCount(count)} ${count === 1 ? noun : pluralNoun}`
}

/** Milliseconds as "850 ms" or "1.25 s". */
export function formatDuration(milliseconds: unknown): string {
	if (typeof milliseconds !== 'number' || !Number.isFinite(milliseconds)) return '—'
	return milliseconds < 1000 ? `${Math.round(milliseconds)} ms` : `${(milliseconds / 1000).toFixed(2)} s`
}

/** Seconds of uptime as "3 h 12 min", "4 min 5 s" or "12 s". */
export function formatUptime(seconds: unknown): string {
	if (typeof seconds !== 'number' || !Number.isFinite(seconds)) return '—'
	const whole = Math.floor(seconds)
	const hours = Math.floor(whole / 3600)
	const minutes = Math.floor((whole % 3600) / 60)
	if (hours > 0) return `${hours} h ${minutes} min`
	if (minutes > 0) return `${minutes} min ${whole % 60} s`
	return `${whole} s`
}

/** A timestamp (ISO text, unix seconds or milliseconds) as local date and time. */
export function formatTime(value: unknown): string {
	let date: Date | null = null
	if (typeof value === 'string' && value !== '') date = new Date(value)
	else if (typeof value === 'number') date = new Date(value < 1e12 ? value * 1000 : value)
	if (!date || Number.isNaN(date.getTime())) return '—'
	return date.toLocaleString()
}

/** A timestamp as a short local time of day (history rows). */
export function formatClock(value: unknown): string {
	const date = typeof value === 'string' || typeof value === 'number' ? new Date(value) : null
	if (!date || Number.isNaN(date.getTime())) return '—'
	return date.toLocaleTimeString()
}

/** The UTF-8 size of a string in bytes. */
export function byteLength(text: string): number {
	return new TextEncoder().encode(text).length
}

/** Text cut to `limit` characters with an ellipsis. */
export function truncate(text: string, limit: number): string {
	return text.length > limit ? `${text.slice(0, limit - 1)}…` : text
}
