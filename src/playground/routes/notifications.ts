/** `/api/notifications/*`: raw activity, counts, and parsed, follow and like notifications. */
import { Elysia, t } from 'elysia'
import { Activity, Notification, NotificationCounts } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'

const Notifications = t.Array(Notification)

/** The notifications route group. */
export const notificationsRoutes = ({ ig }: PlaygroundContext) =>
	new Elysia({ prefix: '/api/notifications' })
		.get('', async () => ok(await ig.notifications.getActivity(), 'Notifications'), {
			...documented('Notifications', 'Raw notifications', Activity)
		})
		.get('/counts', async () => ok(await ig.notifications.getCounts(), 'Notification counts'), {
			...documented('Notifications', 'Counts', NotificationCounts)
		})
		.get(
			'/parsed',
			async () => okPage(await ig.notifications.getParsed(), (n) => `Notifications: ${plural(n, 'item')}`),
			documented('Notifications', 'Parsed notifications', Notifications, { paginated: true })
		)
		.get(
			'/follows',
			async () =>
				okPage(await ig.notifications.getFollowNotifications(), (n) => `Follow notifications: ${n}`),
			documented('Notifications', 'Follow notifications', Notifications, { paginated: true })
		)
		.get(
			'/likes',
			async () => okPage(await ig.notifications.getLikeNotifications(), (n) => `Like notifications: ${n}`),
			documented('Notifications', 'Like notifications', Notifications, { paginated: true })
		)
