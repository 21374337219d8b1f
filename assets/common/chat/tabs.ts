/**
 * The conversation is the server's, one for every tab showing the chat: "New conversation" in one
 * tab forgets it for all. The tab that reset it says so on a BroadcastChannel (same origin only),
 * and the others show their chat empty too, stopping a question that belonged to the old
 * conversation and keeping what is being typed.
 */
import { type ChatOptions, type MountedChat, mountChat } from './chat'

/** `mountChat`, following resets made in the other tabs on `channelName` (one name per server kind). */
export function mountChatAcrossTabs(
	container: HTMLElement,
	options: ChatOptions,
	channelName: string
): MountedChat {
	if (typeof BroadcastChannel !== 'function') return mountChat(container, options)
	const channel = new BroadcastChannel(channelName)
	const chat = mountChat(container, {
		...options,
		onReset: () => {
			channel.postMessage({ type: 'reset' })
			options.onReset?.()
		}
	})
	channel.addEventListener('message', (event: MessageEvent<{ type?: string } | null>) => {
		if (event.data?.type === 'reset') chat.forget()
	})
	return chat
}
