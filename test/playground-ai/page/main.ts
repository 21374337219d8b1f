/** Mounts the shared chat as the playground's AI Chat panel does: `mountChat(element, { basePath: '/api/ai' })`. */
import { mountChat } from '../../../assets/shared/chat'

mountChat(document.getElementById('ai-chat') as HTMLElement, { basePath: '/api/ai' })
