/**
 * Keeping the conversation in view while an answer streams in. The rule: the log follows the
 * conversation only while the person does, that is while it is scrolled to (or within
 * `followSlack` pixels of) its bottom just before new content arrives. Then each new step or
 * approval card is kept in view, and when the answer (or an error) arrives its start is shown: the
 * whole answer when it fits, otherwise its first line at the top of the log. Someone who scrolled
 * up to read older turns is never moved.
 */

/** How far from the bottom (px) the log still counts as following: a line or so. */
export const followSlack = 48

/** Space (px) kept above an answer's first line when it is scrolled to the top of the log. */
const revealMargin = 8

/** Follows the conversation in `log` (the scrolling element) as described above. */
export class LogFollower {
	constructor(private readonly log: HTMLElement) {}

	/** Whether the log is at, or near, its bottom: measure before adding content. */
	following(): boolean {
		const { scrollHeight, scrollTop, clientHeight } = this.log
		return scrollHeight - scrollTop - clientHeight <= followSlack
	}

	/** Scrolls the log to its bottom (new steps of a running answer). */
	toBottom(): void {
		this.log.scrollTop = this.log.scrollHeight
	}

	/**
	 * Shows `start` (an answer, an error) and what follows it up to the end of `bubble`: all of it
	 * when it fits the log, otherwise `start`'s top at the top of the log.
	 */
	reveal(start: HTMLElement, bubble: HTMLElement): void {
		const view = this.log.getBoundingClientRect()
		const offset = (element: Element, edge: 'top' | 'bottom') =>
			element.getBoundingClientRect()[edge] - view.top + this.log.scrollTop
		const top = offset(start, 'top') - revealMargin
		const bottom = offset(bubble, 'bottom') + revealMargin
		const height = this.log.clientHeight
		this.log.scrollTop = bottom - top <= height ? bottom - height : top
	}

	/**
	 * Runs `change` (one stream event, or the end of the stream) and then keeps following: when the
	 * log was at its bottom before, `reveal`s the answer once `finished()` says it has arrived, and
	 * otherwise scrolls to the bottom.
	 */
	around(change: () => void, finished: () => { start: HTMLElement; bubble: HTMLElement } | null): void {
		const follow = this.following()
		change()
		if (!follow) return
		const done = finished()
		if (done) this.reveal(done.start, done.bubble)
		else this.toBottom()
	}
}
