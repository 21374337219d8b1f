/**
 * Where the keyboard focus goes when a list changes under it, the same in every panel:
 *
 * - after something is created (a job started, a watch added) it goes to the new item;
 * - after an item is deleted it goes to the item that took its place (the next one, or the
 *   previous one when the last went), and to the panel's heading when the list is now empty;
 * - after a refusal it stays where it was (the button pressed, which is still there).
 *
 * Never to the page's body, where a keyboard user would have to start again from the top.
 */

/** The key after `key` in `keys` (in the list's order), or before it when it is the last; null when alone or absent. */
export function neighbourKey(keys: readonly (string | undefined)[], key: string): string | null {
	const index = keys.indexOf(key)
	return index < 0 ? null : (keys[index + 1] ?? keys[index - 1] ?? null)
}

/** The `data-{name}` keys of the elements matching `selector` in `list`, in order. */
export function keysOf(list: HTMLElement, selector: string, name: string): (string | undefined)[] {
	return [...list.querySelectorAll<HTMLElement>(selector)].map((element) => element.dataset[name])
}

/** Focuses the first of `candidates` that is on the page. */
export function focusFirst(...candidates: (HTMLElement | null | undefined)[]): void {
	candidates.find((candidate) => candidate?.isConnected)?.focus()
}

/** A panel's heading (focusable: `panelFrame` gives it tabindex -1). */
export function panelHeading(panelId: string): HTMLElement | null {
	return document.getElementById(`panel-title-${panelId}`)
}

/**
 * Marks `button` busy while `work` runs, without `disabled`: a disabled button drops the focus to
 * the page's body. `aria-disabled` says it is busy; a press meanwhile is ignored (returns false).
 */
export function whileBusy(button: HTMLButtonElement, work: () => Promise<void>): boolean {
	if (button.getAttribute('aria-disabled') === 'true') return false
	button.setAttribute('aria-disabled', 'true')
	void work().finally(() => button.setAttribute('aria-disabled', 'false'))
	return true
}
