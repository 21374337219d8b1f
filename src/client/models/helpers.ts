/** Schema helpers of the client models. */
import { type TSchema, Type } from '@sinclair/typebox'

/** 64-bit Instagram ids travel as decimal strings (media pks exceed 2^53). */
export const Id = Type.String({ description: '64-bit Instagram id as a decimal string' })
/** A field a source may lack: present as `null` rather than missing (CSV columns stay the same). */
export const Nullable = <Schema extends TSchema>(schema: Schema) => Type.Union([schema, Type.Null()])
/** A non-negative count. */
export const Count = Type.Integer({ minimum: 0 })
