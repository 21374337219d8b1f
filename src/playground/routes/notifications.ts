/** `/api/notifications/*`: raw activity, counts, and parsed, follow and like notifications. */
import { Elysia, t } from 'elysia'
import { Activity, Notification, NotificationCounts } from '../../client/types'
import type { PlaygroundContext } from '../app'
import { ok } from '../envelope'
import { documented } from './docs'
import { okPage, plural } from './list'
import { ListQuery, singleQuery } from './params'

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
			async ({ query }) =>
				okPage(await ig.notifications.getParsed(query), (n) => `Notifications: ${plural(n, 'item')}`),
			{
				...singleQuery(ListQuery),
				...documented('Notifications', 'Parsed notifications', Notifications, { paginated: true })
			}
		)
		.get(
			'/follows',
			async ({ query }) =>
				okPage(await ig.notifications.getFollowNotifications(query), (n) => `Follow notifications: ${n}`),
			{
				...singleQuery(ListQuery),
				...documented('Notifications', 'Follow notifications', Notifications, { paginated: true })
			}
		)
		.get(
			'/likes',
			async ({ query }) =>
				okPage(await ig.notifications.getLikeNotifications(query), (n) => `Like notifications: ${n}`),
			{
				...singleQuery(ListQuery),
				...documented('Notifications', 'Like notifications', Notifications, { paginated: true })
			}
		)
