/** The chat component shared by the agent web page and the playground's AI Chat panel. */
export { type ChatOptions, type MountedChat, mountChat } from './chat'
